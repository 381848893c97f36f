//! The embedded store: one SQLite file in the data folder, so a laptop needs no
//! database server and data survives restarts.

use std::path::Path;
use std::sync::{Arc, Mutex, TryLockError};

use async_trait::async_trait;
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};

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

/// Schema migrations, applied in order; `PRAGMA user_version` records how many ran.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE users (
        uid     TEXT PRIMARY KEY NOT NULL,
        doc     TEXT NOT NULL,
        version INTEGER NOT NULL
    ) STRICT;",
    "CREATE TABLE results (
        uid TEXT NOT NULL,
        id  TEXT NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (uid, id)
    ) STRICT, WITHOUT ROWID;",
    // One row per attempt key: a second submission of the same attempt finds it.
    "CREATE TABLE attempts (
        uid       TEXT NOT NULL,
        attempt   TEXT NOT NULL,
        result_id TEXT NOT NULL,
        PRIMARY KEY (uid, attempt)
    ) STRICT, WITHOUT ROWID;",
    // One row per paid checkout session: a session is fulfilled once.
    "CREATE TABLE payments (
        session_id TEXT PRIMARY KEY NOT NULL,
        uid        TEXT NOT NULL,
        doc        TEXT NOT NULL
    ) STRICT, WITHOUT ROWID;",
    // One row per learner and paper: the first attempt's score (the comparison line).
    "CREATE TABLE first_attempts (
        uid   TEXT NOT NULL,
        paper TEXT NOT NULL,
        score INTEGER NOT NULL,
        PRIMARY KEY (uid, paper)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX first_attempts_by_paper ON first_attempts (paper, score);",
    // One row per corrected text (the spec's writing_results).
    "CREATE TABLE writing_results (
        uid TEXT NOT NULL,
        id  TEXT NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (uid, id)
    ) STRICT, WITHOUT ROWID;",
    // One row per finished speaking session: a session id is recorded (and charged) once.
    "CREATE TABLE speaking_results (
        uid        TEXT NOT NULL,
        session_id TEXT NOT NULL,
        id         TEXT NOT NULL,
        doc        TEXT NOT NULL,
        PRIMARY KEY (uid, session_id)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX speaking_results_by_time ON speaking_results (uid, id);",
    // Per-user rate limit counters (domain::rate_limit), one row per user, route and window.
    "CREATE TABLE rate_limits (
        key     TEXT PRIMARY KEY NOT NULL,
        count   INTEGER NOT NULL,
        expires INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX rate_limits_by_expiry ON rate_limits (expires);",
];

/// Read-only connections beside the writer: at least this many, or one per core.
const MIN_READERS: usize = 4;

#[derive(Clone)]
pub struct SqliteStore {
    /// The one connection that writes (and, for an in-memory database, the only one).
    conn: Arc<Mutex<Connection>>,
    /// Read-only connections to the same file (none in memory); WAL lets them read while the
    /// writer writes, and each sees every transaction committed before its query began.
    readers: Arc<[Mutex<Connection>]>,
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                StoreError::Backend(format!("cannot create {}: {e}", dir.display()))
            })?;
        }
        let conn = Connection::open(path).map_err(backend)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(backend)?;
        let mut store = Self::init(conn)?;
        let count =
            std::thread::available_parallelism().map_or(MIN_READERS, |n| n.get().max(MIN_READERS));
        let mut readers = Vec::with_capacity(count);
        for _ in 0..count {
            let reader = Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
            .map_err(backend)?;
            reader
                .busy_timeout(std::time::Duration::from_secs(5))
                .map_err(backend)?;
            readers.push(Mutex::new(reader));
        }
        store.readers = readers.into();
        Ok(store)
    }

    /// A private in-memory database, for tests.
    pub fn in_memory() -> Result<Self, StoreError> {
        Self::init(Connection::open_in_memory().map_err(backend)?)
    }

    fn init(mut conn: Connection) -> Result<Self, StoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(backend)?;
        let applied: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(backend)?;
        let tx = conn.transaction().map_err(backend)?;
        for (i, sql) in MIGRATIONS
            .iter()
            .enumerate()
            .skip(usize::try_from(applied).unwrap_or(0))
        {
            tx.execute_batch(sql).map_err(backend)?;
            tx.pragma_update(
                None,
                "user_version",
                i64::try_from(i + 1).unwrap_or(i64::MAX),
            )
            .map_err(backend)?;
        }
        tx.commit().map_err(backend)?;
        Ok(Self {
            conn: Arc::new(Mutex::new(conn)),
            readers: Arc::new([]),
        })
    }

    async fn with_conn<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let conn = Arc::clone(&self.conn);
        tokio::task::spawn_blocking(move || {
            let mut guard = conn
                .lock()
                .map_err(|_| StoreError::Backend("sqlite connection lock poisoned".into()))?;
            f(&mut guard)
        })
        .await
        .map_err(|e| StoreError::Backend(format!("sqlite task failed: {e}")))?
    }

    /// Runs a read (a lookup by key, or a bounded scan of an index) on the caller's thread, on a
    /// free read-only connection.
    ///
    /// Such a read takes microseconds on a warm page cache. Handing it to the blocking pool, as
    /// writes are, cost more than the query itself: a thread woken and two context switches per
    /// request, most of the server's time under load (docs/PERFORMANCE.md). Writes, which wait for
    /// the disk, still go through [`Self::with_conn`]; so does every read of an in-memory database.
    async fn read<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        if self.readers.is_empty() {
            return self.with_conn(move |conn| f(conn)).await;
        }
        for reader in self.readers.iter() {
            match reader.try_lock() {
                Ok(conn) => return f(&conn),
                // A panic while a read held the lock leaves the connection itself usable.
                Err(TryLockError::Poisoned(poisoned)) => return f(&poisoned.into_inner()),
                Err(TryLockError::WouldBlock) => {}
            }
        }
        // More reads at once than connections (only with more threads than cores): wait for one
        // in the blocking pool rather than on this thread.
        let readers = Arc::clone(&self.readers);
        tokio::task::spawn_blocking(move || {
            let conn = readers[0]
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            f(&conn)
        })
        .await
        .map_err(|e| StoreError::Backend(format!("sqlite task failed: {e}")))?
    }
}

/// One row of a prepared (and cached) query, if any.
fn query_opt<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    row: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Option<T>, StoreError> {
    conn.prepare_cached(sql)
        .and_then(|mut stmt| stmt.query_row(params, row).optional())
        .map_err(backend)
}

fn backend(e: rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// How long a counter is kept after its window ends (then the next use deletes it).
const LIMIT_KEEP_SECS: i64 = 86_400;

#[async_trait]
impl RateLimiter for SqliteStore {
    async fn hit(&self, key: &str, expires_at: i64) -> Result<u64, StoreError> {
        let key = key.to_owned();
        self.with_conn(move |conn| {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            tx.execute(
                "DELETE FROM rate_limits WHERE expires < ?1",
                params![expires_at - LIMIT_KEEP_SECS],
            )
            .map_err(backend)?;
            let count: i64 = tx
                .query_row(
                    "INSERT INTO rate_limits (key, count, expires) VALUES (?1, 1, ?2)
                     ON CONFLICT (key) DO UPDATE SET count = count + 1
                     RETURNING count",
                    params![key, expires_at],
                    |r| r.get(0),
                )
                .map_err(backend)?;
            tx.commit().map_err(backend)?;
            u64::try_from(count)
                .map_err(|_| StoreError::Corrupt(format!("rate limit count {count}")))
        })
        .await
    }
}

#[async_trait]
impl UserStore for SqliteStore {
    async fn get_user(&self, uid: &UserId) -> Result<Option<Versioned<UserDoc>>, StoreError> {
        let uid = uid.as_str().to_owned();
        self.read(move |conn| {
            let row: Option<(String, i64)> = query_opt(
                conn,
                "SELECT doc, version FROM users WHERE uid = ?1",
                params![uid],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            row.map(|(doc, version)| {
                let json: serde_json::Value = serde_json::from_str(&doc)
                    .map_err(|e| StoreError::Corrupt(format!("users/{uid}: {e}")))?;
                let version = u64::try_from(version)
                    .map_err(|_| StoreError::Corrupt(format!("users/{uid}: negative version")))?;
                Ok(Versioned {
                    value: codec::user_from_json(&json),
                    version,
                })
            })
            .transpose()
        })
        .await
    }

    async fn put_user(
        &self,
        uid: &UserId,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<u64, StoreError> {
        let uid = uid.as_str().to_owned();
        let json = codec::user_to_json(doc).to_string();
        self.with_conn(move |conn| {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            let next = write_user(&tx, &uid, &json, expected)?;
            tx.commit().map_err(backend)?;
            Ok(next)
        })
        .await
    }
}

/// Writes a user's document inside `tx` if its version is still `expected`.
fn write_user(
    tx: &rusqlite::Transaction<'_>,
    uid: &str,
    json: &str,
    expected: Option<u64>,
) -> Result<u64, StoreError> {
    let current: Option<i64> = tx
        .query_row(
            "SELECT version FROM users WHERE uid = ?1",
            params![uid],
            |r| r.get(0),
        )
        .optional()
        .map_err(backend)?;
    let current = current.and_then(|v| u64::try_from(v).ok());
    if current != expected {
        return Err(StoreError::Conflict);
    }
    let next = expected.map_or(1, |v| v + 1);
    let next_sql = i64::try_from(next)
        .map_err(|_| StoreError::Corrupt(format!("users/{uid}: version overflow")))?;
    tx.execute(
        "INSERT INTO users (uid, doc, version) VALUES (?1, ?2, ?3)
         ON CONFLICT(uid) DO UPDATE SET doc = excluded.doc, version = excluded.version",
        params![uid, json, next_sql],
    )
    .map_err(backend)?;
    Ok(next)
}

#[async_trait]
impl PaymentStore for SqliteStore {
    async fn record_payment(
        &self,
        payment: &PaymentRecord,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<PaymentWrite, StoreError> {
        let session = payment.session_id.as_str().to_owned();
        let uid = payment.uid.as_str().to_owned();
        let record = payment_to_json(payment).to_string();
        let json = codec::user_to_json(doc).to_string();
        self.with_conn(move |conn| {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            let inserted = tx
                .execute(
                    "INSERT OR IGNORE INTO payments (session_id, uid, doc) VALUES (?1, ?2, ?3)",
                    params![session, uid, record],
                )
                .map_err(backend)?;
            if inserted == 0 {
                return Ok(PaymentWrite::AlreadyRecorded);
            }
            // An error here drops the transaction: the payment row is rolled back with it.
            let next = write_user(&tx, &uid, &json, expected)?;
            tx.commit().map_err(backend)?;
            Ok(PaymentWrite::Written(next))
        })
        .await
    }

    async fn get_payment(&self, session: &SessionId) -> Result<Option<PaymentRecord>, StoreError> {
        let session = session.as_str().to_owned();
        self.read(move |conn| {
            query_doc(
                conn,
                "SELECT doc FROM payments WHERE session_id = ?1",
                params![session],
                |d| parse_doc(d, "payment", payment_from_json),
            )
        })
        .await
    }
}

#[async_trait]
impl ResultStore for SqliteStore {
    async fn add_result(&self, record: &ResultRecord) -> Result<Added, StoreError> {
        let uid = record.uid.as_str().to_owned();
        let id = record.id.as_str().to_owned();
        let attempt = record.attempt_key();
        let doc = record.to_json().to_string();
        self.with_conn(move |conn| {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            if let Some(attempt) = attempt {
                let claimed = tx
                    .execute(
                        "INSERT OR IGNORE INTO attempts (uid, attempt, result_id) VALUES (?1, ?2, ?3)",
                        params![uid, attempt, id],
                    )
                    .map_err(backend)?;
                if claimed == 0 {
                    let first: String = tx
                        .query_row(
                            "SELECT result_id FROM attempts WHERE uid = ?1 AND attempt = ?2",
                            params![uid, attempt],
                            |r| r.get(0),
                        )
                        .map_err(backend)?;
                    return ResultId::parse(&first)
                        .map(Added::AlreadyStored)
                        .ok_or_else(|| StoreError::Corrupt(format!("attempt claim: {first}")));
                }
            }
            tx.execute(
                "INSERT INTO results (uid, id, doc) VALUES (?1, ?2, ?3)",
                params![uid, id, doc],
            )
            .map_err(backend)?;
            tx.commit().map_err(backend)?;
            Ok(Added::Stored)
        })
        .await
    }

    async fn get_result(
        &self,
        uid: &UserId,
        id: &ResultId,
    ) -> Result<Option<ResultRecord>, StoreError> {
        let uid = uid.as_str().to_owned();
        let id = id.as_str().to_owned();
        self.read(move |conn| {
            query_doc(
                conn,
                "SELECT doc FROM results WHERE uid = ?1 AND id = ?2",
                params![uid, id],
                parse_result,
            )
        })
        .await
    }

    async fn recent_results(
        &self,
        uid: &UserId,
        skill: Skill,
        limit: usize,
    ) -> Result<Vec<ResultRecord>, StoreError> {
        let uid = uid.as_str().to_owned();
        // Ids start with the skill and sort by time within it.
        let low = format!("{}.", skill.as_str());
        let high = format!("{}/", skill.as_str());
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(move |conn| {
            query_docs(
                conn,
                "SELECT doc FROM results WHERE uid = ?1 AND id > ?2 AND id < ?3
                 ORDER BY id DESC LIMIT ?4",
                params![uid, low, high, limit],
                parse_result,
            )
        })
        .await
    }

    async fn count_first_attempt(
        &self,
        uid: &UserId,
        skill: Skill,
        test_id: u32,
        score: u32,
    ) -> Result<u32, StoreError> {
        let uid = uid.as_str().to_owned();
        let paper = paper_key(skill, test_id);
        self.with_conn(move |conn| {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            tx.execute(
                "INSERT OR IGNORE INTO first_attempts (uid, paper, score) VALUES (?1, ?2, ?3)",
                params![uid, paper, score],
            )
            .map_err(backend)?;
            let first: u32 = tx
                .query_row(
                    "SELECT score FROM first_attempts WHERE uid = ?1 AND paper = ?2",
                    params![uid, paper],
                    |r| r.get(0),
                )
                .map_err(backend)?;
            tx.commit().map_err(backend)?;
            Ok(first)
        })
        .await
    }

    async fn first_attempt_score(
        &self,
        uid: &UserId,
        skill: Skill,
        test_id: u32,
    ) -> Result<Option<u32>, StoreError> {
        let uid = uid.as_str().to_owned();
        let paper = paper_key(skill, test_id);
        self.read(move |conn| {
            query_opt(
                conn,
                "SELECT score FROM first_attempts WHERE uid = ?1 AND paper = ?2",
                params![uid, paper],
                |r| r.get(0),
            )
        })
        .await
    }

    async fn score_distribution(&self, skill: Skill, test_id: u32) -> Result<Vec<u64>, StoreError> {
        let paper = paper_key(skill, test_id);
        self.with_conn(move |conn| {
            let mut stmt = conn
                .prepare(
                    "SELECT score, COUNT(*) FROM first_attempts WHERE paper = ?1 GROUP BY score",
                )
                .map_err(backend)?;
            let rows = stmt
                .query_map(params![paper], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
                })
                .map_err(backend)?;
            let mut counts = vec![0u64; DISTRIBUTION_LEN];
            for row in rows {
                let (score, n) = row.map_err(backend)?;
                if let (Some(slot), Ok(n)) = (
                    usize::try_from(score).ok().and_then(|i| counts.get_mut(i)),
                    u64::try_from(n),
                ) {
                    *slot = n;
                }
            }
            Ok(counts)
        })
        .await
    }
}

fn parse_result(doc: &str) -> Result<ResultRecord, StoreError> {
    parse_doc(doc, "result", ResultRecord::from_json)
}

/// A stored JSON document read back as a record; `what` names it in errors.
fn parse_doc<T>(
    doc: &str,
    what: &str,
    from_json: impl Fn(&serde_json::Value) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let v: serde_json::Value =
        serde_json::from_str(doc).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))?;
    from_json(&v)
}

/// The document a query selects (its one column is `doc`), if any, read back by `parse`.
fn query_doc<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    parse: impl Fn(&str) -> Result<T, StoreError>,
) -> Result<Option<T>, StoreError> {
    query_opt(conn, sql, params, |r| r.get::<_, String>(0))?
        .map(|d| parse(&d))
        .transpose()
}

/// The documents a query selects (its one column is `doc`), each read back by `parse`.
fn query_docs<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    parse: impl Fn(&str) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    let mut stmt = conn.prepare_cached(sql).map_err(backend)?;
    let docs = stmt
        .query_map(params, |r| r.get::<_, String>(0))
        .map_err(backend)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(backend)?;
    docs.iter().map(|d| parse(d)).collect()
}

#[async_trait]
impl WritingStore for SqliteStore {
    async fn add_writing_result(&self, record: &WritingResult) -> Result<(), StoreError> {
        let uid = record.uid.as_str().to_owned();
        let id = record.id.as_str().to_owned();
        let doc = record.to_json().to_string();
        self.with_conn(move |conn| {
            conn.execute(
                "INSERT INTO writing_results (uid, id, doc) VALUES (?1, ?2, ?3)",
                params![uid, id, doc],
            )
            .map_err(backend)?;
            Ok(())
        })
        .await
    }

    async fn recent_writing_results(
        &self,
        uid: &UserId,
        limit: usize,
    ) -> Result<Vec<WritingResult>, StoreError> {
        let uid = uid.as_str().to_owned();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(move |conn| {
            query_docs(
                conn,
                "SELECT doc FROM writing_results WHERE uid = ?1 ORDER BY id DESC LIMIT ?2",
                params![uid, limit],
                |d| parse_doc(d, "writing result", WritingResult::from_json),
            )
        })
        .await
    }
}

fn parse_speaking(doc: &str) -> Result<SpeakingResult, StoreError> {
    parse_doc(doc, "speaking result", SpeakingResult::from_json)
}

#[async_trait]
impl SpeakingStore for SqliteStore {
    async fn record_session(
        &self,
        record: &SpeakingResult,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<SessionWrite, StoreError> {
        let uid = record.uid.as_str().to_owned();
        let session = record.session_id.clone();
        let id = record.id.as_str().to_owned();
        let body = record.to_json().to_string();
        let json = codec::user_to_json(doc).to_string();
        self.with_conn(move |conn| {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            let inserted = tx
                .execute(
                    "INSERT OR IGNORE INTO speaking_results (uid, session_id, id, doc) VALUES (?1, ?2, ?3, ?4)",
                    params![uid, session, id, body],
                )
                .map_err(backend)?;
            if inserted == 0 {
                return Ok(SessionWrite::AlreadyRecorded);
            }
            // An error here drops the transaction: the session row is rolled back with it.
            let next = write_user(&tx, &uid, &json, expected)?;
            tx.commit().map_err(backend)?;
            Ok(SessionWrite::Written(next))
        })
        .await
    }

    async fn get_session(
        &self,
        uid: &UserId,
        session_id: &str,
    ) -> Result<Option<SpeakingResult>, StoreError> {
        let uid = uid.as_str().to_owned();
        let session = session_id.to_owned();
        self.read(move |conn| {
            query_doc(
                conn,
                "SELECT doc FROM speaking_results WHERE uid = ?1 AND session_id = ?2",
                params![uid, session],
                parse_speaking,
            )
        })
        .await
    }

    async fn recent_speaking_results(
        &self,
        uid: &UserId,
        limit: usize,
    ) -> Result<Vec<SpeakingResult>, StoreError> {
        let uid = uid.as_str().to_owned();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(move |conn| {
            query_docs(
                conn,
                "SELECT doc FROM speaking_results WHERE uid = ?1 ORDER BY id DESC LIMIT ?2",
                params![uid, limit],
                parse_speaking,
            )
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::UserDoc;

    fn uid() -> UserId {
        UserId::parse("reader-test").unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reads_see_the_writers_commits_even_when_every_reader_is_busy() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(&dir.path().join("tef.sqlite")).unwrap();
        assert!(store.readers.len() >= MIN_READERS);
        assert!(store.get_user(&uid()).await.unwrap().is_none());
        store
            .put_user(&uid(), &UserDoc::default(), None)
            .await
            .unwrap();
        // Read on a reader connection, inline: the writer's commit is visible.
        assert_eq!(store.get_user(&uid()).await.unwrap().unwrap().version, 1);

        // Every reader held: the read waits in the blocking pool, then answers.
        let guards: Vec<_> = store.readers.iter().map(|r| r.lock().unwrap()).collect();
        let waiting = tokio::spawn({
            let store = store.clone();
            async move { store.get_user(&uid()).await }
        });
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "a read went past a held connection");
        drop(guards);
        let read = waiting.await.unwrap().unwrap().unwrap();
        assert_eq!(read.version, 1);
    }

    #[tokio::test]
    async fn a_reader_cannot_write() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(&dir.path().join("tef.sqlite")).unwrap();
        let conn = store.readers[0].lock().unwrap();
        assert!(conn.execute("DELETE FROM users", []).is_err());
    }
}
