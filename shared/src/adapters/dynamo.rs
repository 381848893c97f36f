//! The DynamoDB store. Items hold the document's fields as top-level attributes
//! (the spec's names), plus the key `uid` and a `version` for compare-and-set.

use std::collections::HashMap;

use async_trait::async_trait;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem, Update};
use serde_json::{Map, Number, Value};

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;

use crate::adapters::codec;
use crate::domain::exam::Skill;
use crate::domain::payments::{PaymentRecord, SessionId};
use crate::domain::{UserDoc, UserId};
use crate::ports::limits::RateLimiter;
use crate::ports::payments::{PaymentStore, PaymentWrite, payment_from_json, payment_to_json};
use crate::ports::results::{
    Added, DISTRIBUTION_LEN, ResultId, ResultRecord, ResultStore, paper_key,
};
use crate::ports::speaking::{SessionWrite, SpeakingResult, SpeakingStore};
use crate::ports::store::{StoreError, UserStore, Versioned};
use crate::ports::writing::{WritingResult, WritingStore};

const KEY: &str = "uid";
const VERSION: &str = "version";
/// The results table's sort key: the result id (skill, then time).
const RESULT_KEY: &str = "id";
/// Sort-key prefix of an attempt claim, an item beside the user's results that names the
/// result stored for an attempt. It never starts like a result id (`<skill>.`).
const ATTEMPT_PREFIX: &str = "attempt#";
const CLAIMED_RESULT: &str = "resultId";
/// Sort-key prefix of a learner's first attempt at a paper (its score in `score`).
const FIRST_PREFIX: &str = "first#";
const FIRST_SCORE: &str = "score";
/// The partition holding each paper's first-attempt score counts (`s0` … `s40`), sorted by
/// paper key. No user id can take this form (user ids have no `~`).
const STATS_UID: &str = "~paper-stats";

/// The payments table's key: the checkout session id.
const PAYMENT_KEY: &str = "sessionId";

/// The tables the store uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tables {
    pub users: String,
    pub results: String,
    pub payments: String,
    pub writing: String,
    pub speaking: String,
    /// Rate limit counters (key `key`, TTL attribute `expires`).
    pub limits: String,
}

impl Tables {
    /// The variables the deployed functions get, one per table, in the order of the fields.
    pub const VARS: [&'static str; 6] = [
        "TEF_USERS_TABLE",
        "TEF_RESULTS_TABLE",
        "TEF_PAYMENTS_TABLE",
        "TEF_WRITING_TABLE",
        "TEF_SPEAKING_TABLE",
        "TEF_LIMITS_TABLE",
    ];

    /// The tables named by [`Self::VARS`]; `None` when one is missing.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Option<Self> {
        let [users, results, payments, writing, speaking, limits] = Self::VARS;
        Some(Self {
            users: var(users)?,
            results: var(results)?,
            payments: var(payments)?,
            writing: var(writing)?,
            speaking: var(speaking)?,
            limits: var(limits)?,
        })
    }

    /// Each of [`Self::VARS`] with its table's name: what selects these tables.
    pub fn vars(&self) -> Vec<(&'static str, String)> {
        let names = [
            &self.users,
            &self.results,
            &self.payments,
            &self.writing,
            &self.speaking,
            &self.limits,
        ];
        Self::VARS
            .into_iter()
            .zip(names.into_iter().cloned())
            .collect()
    }
}

#[derive(Clone)]
pub struct DynamoStore {
    client: Client,
    users_table: String,
    results_table: String,
    payments_table: String,
    writing_table: String,
    speaking_table: String,
    limits_table: String,
}

impl DynamoStore {
    pub fn new(client: Client, tables: Tables) -> Self {
        Self {
            client,
            users_table: tables.users,
            results_table: tables.results,
            payments_table: tables.payments,
            writing_table: tables.writing,
            speaking_table: tables.speaking,
            limits_table: tables.limits,
        }
    }

    /// The user's items of `table` whose id starts with `prefix`, newest first (ids sort by time).
    async fn latest_items(
        &self,
        table: &str,
        uid: &UserId,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<HashMap<String, AttributeValue>>, StoreError> {
        let out = self
            .client
            .query()
            .table_name(table)
            .key_condition_expression("#u = :u AND begins_with(#id, :p)")
            .expression_attribute_names("#u", KEY)
            .expression_attribute_names("#id", RESULT_KEY)
            .expression_attribute_values(":u", AttributeValue::S(uid.as_str().to_owned()))
            .expression_attribute_values(":p", AttributeValue::S(prefix.to_owned()))
            .scan_index_forward(false)
            .limit(i32::try_from(limit).unwrap_or(i32::MAX))
            .send()
            .await
            .map_err(|e| sdk_error("Query", e))?;
        Ok(out.items.unwrap_or_default())
    }
}

fn sdk_error<E: ProvideErrorMetadata + std::fmt::Debug>(op: &str, e: E) -> StoreError {
    StoreError::Backend(format!(
        "{op}: {}: {}",
        e.code().unwrap_or("unknown"),
        e.message().unwrap_or("no message")
    ))
}

#[async_trait]
impl UserStore for DynamoStore {
    async fn get_user(&self, uid: &UserId) -> Result<Option<Versioned<UserDoc>>, StoreError> {
        let out = self
            .client
            .get_item()
            .table_name(&self.users_table)
            .key(KEY, AttributeValue::S(uid.as_str().to_owned()))
            .consistent_read(true)
            .send()
            .await
            .map_err(|e| sdk_error("GetItem", e))?;
        let Some(mut item) = out.item else {
            return Ok(None);
        };
        item.remove(KEY);
        let version = item
            .remove(VERSION)
            .and_then(|v| v.as_n().ok().and_then(|n| n.parse::<u64>().ok()))
            .ok_or_else(|| StoreError::Corrupt(format!("users/{uid}: no numeric version")))?;
        let json = Value::Object(
            item.into_iter()
                .map(|(k, v)| (k, attribute_to_json(v)))
                .collect(),
        );
        Ok(Some(Versioned {
            value: codec::user_from_json(&json),
            version,
        }))
    }

    async fn put_user(
        &self,
        uid: &UserId,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<u64, StoreError> {
        let (update, next) = self.user_update(uid, doc, expected)?;
        let sent = self
            .client
            .update_item()
            .table_name(update.table_name())
            .set_key(Some(update.key().clone()))
            .update_expression(update.update_expression())
            .set_condition_expression(update.condition_expression().map(str::to_owned))
            .set_expression_attribute_names(update.expression_attribute_names().cloned())
            .set_expression_attribute_values(update.expression_attribute_values().cloned())
            .send()
            .await;
        match sent {
            Ok(_) => Ok(next),
            Err(e) => {
                let service = e.into_service_error();
                if service.is_conditional_check_failed_exception() {
                    Err(StoreError::Conflict)
                } else {
                    Err(sdk_error("UpdateItem", service))
                }
            }
        }
    }
}

/// The rate limits table's key, and its TTL attribute (unix seconds).
const LIMIT_KEY: &str = "key";
const LIMIT_EXPIRES: &str = "expires";

#[async_trait]
impl RateLimiter for DynamoStore {
    async fn hit(&self, key: &str, expires_at: i64) -> Result<u64, StoreError> {
        let out = self
            .client
            .update_item()
            .table_name(&self.limits_table)
            .key(LIMIT_KEY, AttributeValue::S(key.to_owned()))
            .update_expression("ADD #count :one SET #expires = if_not_exists(#expires, :expires)")
            .expression_attribute_names("#count", "count")
            .expression_attribute_names("#expires", LIMIT_EXPIRES)
            .expression_attribute_values(":one", AttributeValue::N("1".into()))
            .expression_attribute_values(":expires", AttributeValue::N(expires_at.to_string()))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::UpdatedNew)
            .send()
            .await
            .map_err(|e| sdk_error("UpdateItem", e))?;
        match out.attributes().and_then(|a| a.get("count")) {
            Some(AttributeValue::N(n)) => n
                .parse()
                .map_err(|_| StoreError::Corrupt(format!("rate limit count {n}"))),
            _ => Err(StoreError::Corrupt(format!("rate limit {key}: no count"))),
        }
    }
}

impl DynamoStore {
    /// The conditional write of a user's document at version `expected` (`None`: a new
    /// document), and the version it writes. Shared by `put_user` and the transactions that
    /// write a user with a record (payments, speaking sessions). A merge, not a replacement:
    /// it sets the fields the document owns, removes those it leaves empty, and keeps any
    /// other attribute of the item (one written by a newer function, or by support).
    fn user_update(
        &self,
        uid: &UserId,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<(Update, u64), StoreError> {
        let next = expected.map_or(1, |v| v + 1);
        let Value::Object(mut fields) = codec::user_to_json(doc) else {
            return Err(StoreError::Corrupt(
                "a user document must be an object".into(),
            ));
        };
        let mut set = vec!["#v = :next".to_owned()];
        let mut remove = Vec::new();
        let mut update = Update::builder()
            .table_name(&self.users_table)
            .key(KEY, AttributeValue::S(uid.as_str().to_owned()))
            .expression_attribute_names("#k", KEY)
            .expression_attribute_names("#v", VERSION)
            .expression_attribute_values(":next", AttributeValue::N(next.to_string()));
        for (i, field) in codec::USER_FIELDS.iter().enumerate() {
            update = update.expression_attribute_names(format!("#f{i}"), *field);
            match fields.remove(*field) {
                Some(v) => {
                    set.push(format!("#f{i} = :f{i}"));
                    update =
                        update.expression_attribute_values(format!(":f{i}"), json_to_attribute(v));
                }
                None => remove.push(format!("#f{i}")),
            }
        }
        if let Some(field) = fields.keys().next() {
            return Err(StoreError::Corrupt(format!(
                "user field {field} is not in codec::USER_FIELDS"
            )));
        }
        let mut expression = format!("SET {}", set.join(", "));
        if !remove.is_empty() {
            expression.push_str(&format!(" REMOVE {}", remove.join(", ")));
        }
        let update = update.update_expression(expression);
        let update = match expected {
            None => update.condition_expression("attribute_not_exists(#k)"),
            Some(v) => update
                .condition_expression("attribute_exists(#k) AND #v = :v")
                .expression_attribute_values(":v", AttributeValue::N(v.to_string())),
        };
        let update = update
            .build()
            .map_err(|e| StoreError::Backend(format!("Update: {e}")))?;
        Ok((update, next))
    }
}

#[async_trait]
impl PaymentStore for DynamoStore {
    async fn record_payment(
        &self,
        payment: &PaymentRecord,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<PaymentWrite, StoreError> {
        let Value::Object(fields) = payment_to_json(payment) else {
            return Err(StoreError::Corrupt("a payment must be an object".into()));
        };
        let record = Put::builder()
            .table_name(&self.payments_table)
            .set_item(Some(
                fields
                    .into_iter()
                    .map(|(k, v)| (k, json_to_attribute(v)))
                    .collect(),
            ))
            .condition_expression("attribute_not_exists(#s)")
            .expression_attribute_names("#s", PAYMENT_KEY)
            .build()
            .map_err(|e| StoreError::Backend(format!("Put: {e}")))?;
        let (user, next) = self.user_update(&payment.uid, doc, expected)?;
        let sent = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(record).build())
            .transact_items(TransactWriteItem::builder().update(user).build())
            .send()
            .await;
        let service = match sent {
            Ok(_) => return Ok(PaymentWrite::Written(next)),
            Err(e) => e.into_service_error(),
        };
        match cancelled_by_condition(&service).as_slice() {
            [true, _] => Ok(PaymentWrite::AlreadyRecorded),
            [false, true] => Err(StoreError::Conflict),
            _ => Err(sdk_error("TransactWriteItems", service)),
        }
    }

    async fn get_payment(&self, session: &SessionId) -> Result<Option<PaymentRecord>, StoreError> {
        let out = self
            .client
            .get_item()
            .table_name(&self.payments_table)
            .key(PAYMENT_KEY, AttributeValue::S(session.as_str().to_owned()))
            .consistent_read(true)
            .send()
            .await
            .map_err(|e| sdk_error("GetItem", e))?;
        out.item
            .map(|item| {
                payment_from_json(&Value::Object(
                    item.into_iter()
                        .map(|(k, v)| (k, attribute_to_json(v)))
                        .collect(),
                ))
            })
            .transpose()
    }
}

/// For a cancelled transaction, whether each item's condition failed; empty otherwise.
fn cancelled_by_condition(e: &TransactWriteItemsError) -> Vec<bool> {
    match e {
        TransactWriteItemsError::TransactionCanceledException(c) => c
            .cancellation_reasons()
            .iter()
            .map(|r| r.code() == Some("ConditionalCheckFailed"))
            .collect(),
        _ => Vec::new(),
    }
}

fn result_from_item(item: HashMap<String, AttributeValue>) -> Result<ResultRecord, StoreError> {
    let json = Value::Object(
        item.into_iter()
            .map(|(k, v)| (k, attribute_to_json(v)))
            .collect(),
    );
    ResultRecord::from_json(&json)
}

#[async_trait]
impl ResultStore for DynamoStore {
    async fn add_result(&self, record: &ResultRecord) -> Result<Added, StoreError> {
        let Value::Object(fields) = record.to_json() else {
            return Err(StoreError::Corrupt("a result must be an object".into()));
        };
        let item: HashMap<String, AttributeValue> = fields
            .into_iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k, json_to_attribute(v)))
            .collect();
        let put_new = |item: HashMap<String, AttributeValue>| {
            Put::builder()
                .table_name(&self.results_table)
                .set_item(Some(item))
                .condition_expression("attribute_not_exists(#id)")
                .expression_attribute_names("#id", RESULT_KEY)
                .build()
                .map_err(|e| StoreError::Backend(format!("Put: {e}")))
        };
        let Some(attempt) = record.attempt_key() else {
            self.client
                .put_item()
                .table_name(&self.results_table)
                .set_item(Some(item))
                .condition_expression("attribute_not_exists(#id)")
                .expression_attribute_names("#id", RESULT_KEY)
                .send()
                .await
                .map_err(|e| sdk_error("PutItem", e))?;
            return Ok(Added::Stored);
        };
        // The claim and the result are written together, or not at all.
        let uid = AttributeValue::S(record.uid.as_str().to_owned());
        let claim_key = AttributeValue::S(format!("{ATTEMPT_PREFIX}{attempt}"));
        let claim = HashMap::from([
            (KEY.to_owned(), uid.clone()),
            (RESULT_KEY.to_owned(), claim_key.clone()),
            (
                CLAIMED_RESULT.to_owned(),
                AttributeValue::S(record.id.as_str().to_owned()),
            ),
        ]);
        let sent = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(put_new(claim)?).build())
            .transact_items(TransactWriteItem::builder().put(put_new(item)?).build())
            .send()
            .await;
        let service = match sent {
            Ok(_) => return Ok(Added::Stored),
            Err(e) => e.into_service_error(),
        };
        if cancelled_by_condition(&service).first() != Some(&true) {
            return Err(sdk_error("TransactWriteItems", service));
        }
        let out = self
            .client
            .get_item()
            .table_name(&self.results_table)
            .key(KEY, uid)
            .key(RESULT_KEY, claim_key)
            .consistent_read(true)
            .send()
            .await
            .map_err(|e| sdk_error("GetItem", e))?;
        match out.item.as_ref().and_then(|i| i.get(CLAIMED_RESULT)) {
            Some(AttributeValue::S(first)) => ResultId::parse(first)
                .map(Added::AlreadyStored)
                .ok_or_else(|| StoreError::Corrupt(format!("attempt claim: {first}"))),
            _ => Err(StoreError::Corrupt(format!("attempt claim {attempt}"))),
        }
    }

    async fn get_result(
        &self,
        uid: &UserId,
        id: &ResultId,
    ) -> Result<Option<ResultRecord>, StoreError> {
        let out = self
            .client
            .get_item()
            .table_name(&self.results_table)
            .key(KEY, AttributeValue::S(uid.as_str().to_owned()))
            .key(RESULT_KEY, AttributeValue::S(id.as_str().to_owned()))
            .send()
            .await
            .map_err(|e| sdk_error("GetItem", e))?;
        out.item.map(result_from_item).transpose()
    }

    async fn recent_results(
        &self,
        uid: &UserId,
        skill: Skill,
        limit: usize,
    ) -> Result<Vec<ResultRecord>, StoreError> {
        self.latest_items(
            &self.results_table,
            uid,
            &format!("{}.", skill.as_str()),
            limit,
        )
        .await?
        .into_iter()
        .map(result_from_item)
        .collect()
    }

    async fn count_first_attempt(
        &self,
        uid: &UserId,
        skill: Skill,
        test_id: u32,
        score: u32,
    ) -> Result<u32, StoreError> {
        let paper = paper_key(skill, test_id);
        let claim_key = HashMap::from([
            (KEY.to_owned(), AttributeValue::S(uid.as_str().to_owned())),
            (
                RESULT_KEY.to_owned(),
                AttributeValue::S(format!("{FIRST_PREFIX}{paper}")),
            ),
        ]);
        let mut claim = claim_key.clone();
        claim.insert(FIRST_SCORE.into(), AttributeValue::N(score.to_string()));
        let put = Put::builder()
            .table_name(&self.results_table)
            .set_item(Some(claim))
            .condition_expression("attribute_not_exists(#id)")
            .expression_attribute_names("#id", RESULT_KEY)
            .build()
            .map_err(|e| StoreError::Backend(format!("Put: {e}")))?;
        let count = Update::builder()
            .table_name(&self.results_table)
            .key(KEY, AttributeValue::S(STATS_UID.to_owned()))
            .key(RESULT_KEY, AttributeValue::S(paper.clone()))
            .update_expression("ADD #s :one")
            .expression_attribute_names("#s", format!("s{score}"))
            .expression_attribute_values(":one", AttributeValue::N("1".into()))
            .build()
            .map_err(|e| StoreError::Backend(format!("Update: {e}")))?;
        let sent = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(put).build())
            .transact_items(TransactWriteItem::builder().update(count).build())
            .send()
            .await;
        match sent {
            Ok(_) => Ok(score),
            Err(e) => {
                let service = e.into_service_error();
                if cancelled_by_condition(&service).first() != Some(&true) {
                    return Err(sdk_error("TransactWriteItems", service));
                }
                self.first_attempt_score(uid, skill, test_id)
                    .await?
                    .ok_or_else(|| StoreError::Corrupt(format!("first attempt {paper}")))
            }
        }
    }

    async fn first_attempt_score(
        &self,
        uid: &UserId,
        skill: Skill,
        test_id: u32,
    ) -> Result<Option<u32>, StoreError> {
        let out = self
            .client
            .get_item()
            .table_name(&self.results_table)
            .key(KEY, AttributeValue::S(uid.as_str().to_owned()))
            .key(
                RESULT_KEY,
                AttributeValue::S(format!("{FIRST_PREFIX}{}", paper_key(skill, test_id))),
            )
            .consistent_read(true)
            .send()
            .await
            .map_err(|e| sdk_error("GetItem", e))?;
        Ok(out
            .item
            .and_then(|i| i.get(FIRST_SCORE).cloned())
            .and_then(|v| v.as_n().ok().and_then(|n| n.parse().ok())))
    }

    async fn score_distribution(&self, skill: Skill, test_id: u32) -> Result<Vec<u64>, StoreError> {
        let out = self
            .client
            .get_item()
            .table_name(&self.results_table)
            .key(KEY, AttributeValue::S(STATS_UID.to_owned()))
            .key(RESULT_KEY, AttributeValue::S(paper_key(skill, test_id)))
            .send()
            .await
            .map_err(|e| sdk_error("GetItem", e))?;
        let item = out.item.unwrap_or_default();
        Ok((0..DISTRIBUTION_LEN)
            .map(|c| {
                item.get(&format!("s{c}"))
                    .and_then(|v| v.as_n().ok())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0)
            })
            .collect())
    }
}

/// DynamoDB attribute to JSON; numbers become integers when they are integers.
pub fn attribute_to_json(v: AttributeValue) -> Value {
    match v {
        AttributeValue::S(s) => Value::String(s),
        AttributeValue::N(n) => n
            .parse::<i64>()
            .map(Value::from)
            .ok()
            .or_else(|| {
                n.parse::<f64>()
                    .ok()
                    .and_then(Number::from_f64)
                    .map(Value::Number)
            })
            .unwrap_or(Value::String(n)),
        AttributeValue::Bool(b) => Value::Bool(b),
        AttributeValue::L(list) => Value::Array(list.into_iter().map(attribute_to_json).collect()),
        AttributeValue::M(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, attribute_to_json(v)))
                .collect::<Map<_, _>>(),
        ),
        AttributeValue::Ss(list) => Value::Array(list.into_iter().map(Value::String).collect()),
        _ => Value::Null,
    }
}

/// JSON to DynamoDB attribute.
pub fn json_to_attribute(v: Value) -> AttributeValue {
    match v {
        Value::Null => AttributeValue::Null(true),
        Value::Bool(b) => AttributeValue::Bool(b),
        Value::Number(n) => AttributeValue::N(n.to_string()),
        Value::String(s) => AttributeValue::S(s),
        Value::Array(a) => AttributeValue::L(a.into_iter().map(json_to_attribute).collect()),
        Value::Object(o) => AttributeValue::M(
            o.into_iter()
                .map(|(k, v)| (k, json_to_attribute(v)))
                .collect(),
        ),
    }
}

#[async_trait]
impl WritingStore for DynamoStore {
    async fn add_writing_result(&self, record: &WritingResult) -> Result<(), StoreError> {
        let Value::Object(fields) = record.to_json() else {
            return Err(StoreError::Corrupt(
                "a writing result must be an object".into(),
            ));
        };
        let item: HashMap<String, AttributeValue> = fields
            .into_iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k, json_to_attribute(v)))
            .collect();
        self.client
            .put_item()
            .table_name(&self.writing_table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(#id)")
            .expression_attribute_names("#id", RESULT_KEY)
            .send()
            .await
            .map_err(|e| sdk_error("PutItem", e))?;
        Ok(())
    }

    async fn recent_writing_results(
        &self,
        uid: &UserId,
        limit: usize,
    ) -> Result<Vec<WritingResult>, StoreError> {
        self.latest_items(&self.writing_table, uid, "writing.", limit)
            .await?
            .into_iter()
            .map(|item| {
                let json = Value::Object(
                    item.into_iter()
                        .map(|(k, v)| (k, attribute_to_json(v)))
                        .collect(),
                );
                WritingResult::from_json(&json)
            })
            .collect()
    }
}

/// In the speaking table a session is two items of the user's partition, written together:
/// `session#<id>` (the claim, holding the whole record) and the record under its result id
/// (`speaking.<µs>.<hex>`, for "latest first").
const SESSION_PREFIX: &str = "session#";

fn item_of(
    record: &SpeakingResult,
    sort_key: String,
) -> Result<HashMap<String, AttributeValue>, StoreError> {
    let Value::Object(fields) = record.to_json() else {
        return Err(StoreError::Corrupt(
            "a speaking result must be an object".into(),
        ));
    };
    let mut item: HashMap<String, AttributeValue> = fields
        .into_iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| (k, json_to_attribute(v)))
        .collect();
    item.insert(RESULT_KEY.into(), AttributeValue::S(sort_key));
    Ok(item)
}

fn speaking_from_item(item: HashMap<String, AttributeValue>) -> Result<SpeakingResult, StoreError> {
    let mut json: Map<String, Value> = item
        .into_iter()
        .map(|(k, v)| (k, attribute_to_json(v)))
        .collect();
    // The claim item's sort key is the session; the record's id is kept in `recordId`.
    if let Some(id) = json.remove("recordId") {
        json.insert(RESULT_KEY.into(), id);
    }
    SpeakingResult::from_json(&Value::Object(json))
}

#[async_trait]
impl SpeakingStore for DynamoStore {
    async fn record_session(
        &self,
        record: &SpeakingResult,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<SessionWrite, StoreError> {
        let build =
            |e: aws_sdk_dynamodb::error::BuildError| StoreError::Backend(format!("Put: {e}"));
        let mut claim = item_of(record, format!("{SESSION_PREFIX}{}", record.session_id))?;
        claim.insert(
            "recordId".into(),
            AttributeValue::S(record.id.as_str().to_owned()),
        );
        let claim = Put::builder()
            .table_name(&self.speaking_table)
            .set_item(Some(claim))
            .condition_expression("attribute_not_exists(#id)")
            .expression_attribute_names("#id", RESULT_KEY)
            .build()
            .map_err(build)?;
        let result = Put::builder()
            .table_name(&self.speaking_table)
            .set_item(Some(item_of(record, record.id.as_str().to_owned())?))
            .build()
            .map_err(build)?;
        let (user, next) = self.user_update(&record.uid, doc, expected)?;
        let sent = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(claim).build())
            .transact_items(TransactWriteItem::builder().put(result).build())
            .transact_items(TransactWriteItem::builder().update(user).build())
            .send()
            .await;
        let service = match sent {
            Ok(_) => return Ok(SessionWrite::Written(next)),
            Err(e) => e.into_service_error(),
        };
        match cancelled_by_condition(&service).as_slice() {
            [true, _, _] => Ok(SessionWrite::AlreadyRecorded),
            [false, _, true] => Err(StoreError::Conflict),
            _ => Err(sdk_error("TransactWriteItems", service)),
        }
    }

    async fn get_session(
        &self,
        uid: &UserId,
        session_id: &str,
    ) -> Result<Option<SpeakingResult>, StoreError> {
        let out = self
            .client
            .get_item()
            .table_name(&self.speaking_table)
            .key(KEY, AttributeValue::S(uid.as_str().to_owned()))
            .key(
                RESULT_KEY,
                AttributeValue::S(format!("{SESSION_PREFIX}{session_id}")),
            )
            .consistent_read(true)
            .send()
            .await
            .map_err(|e| sdk_error("GetItem", e))?;
        out.item.map(speaking_from_item).transpose()
    }

    async fn recent_speaking_results(
        &self,
        uid: &UserId,
        limit: usize,
    ) -> Result<Vec<SpeakingResult>, StoreError> {
        self.latest_items(&self.speaking_table, uid, "speaking.", limit)
            .await?
            .into_iter()
            .map(speaking_from_item)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_and_attributes_round_trip() {
        let v = json!({"a": 1, "b": "x", "c": true, "d": [1, 2], "e": {"f": 2.5}, "g": null});
        assert_eq!(attribute_to_json(json_to_attribute(v.clone())), v);
    }

    #[test]
    fn a_string_credit_stays_a_string() {
        assert_eq!(
            attribute_to_json(AttributeValue::S("3".into())),
            Value::String("3".into())
        );
    }
}
