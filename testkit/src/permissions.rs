//! The comparison at the heart of the permission test: the calls a function's route really
//! made (recorded on the wire, as logical resources) against the statements of its policy in
//! the template. Both ways: every call is granted, and every grant is used (least privilege).

use std::collections::BTreeSet;

use crate::template::{Statement, glob_match};

/// A recorded call in the template's terms: an IAM action on a logical resource
/// (`UsersTable`, `ResultsTable/index/byDate`, `MediaBucket/tts/ab.wav`, `parameter/tef/x`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Use {
    pub action: String,
    pub resource: String,
}

/// Every problem, worded for the person who has to fix the template.
pub fn compare(function: &str, statements: &[Statement], used: &BTreeSet<Use>) -> Vec<String> {
    let mut problems = Vec::new();
    for u in used {
        let granted = statements.iter().any(|s| {
            s.actions.iter().any(|a| a == &u.action)
                && s.resources.iter().any(|r| glob_match(r, &u.resource))
        });
        if !granted {
            problems.push(format!(
                "{function}: its route calls {} on {}, which its policy does not grant",
                u.action, u.resource
            ));
        }
    }
    for s in statements {
        for action in &s.actions {
            if action.contains('*') {
                problems.push(format!("{function}: wildcard action {action}"));
            }
            for pattern in &s.resources {
                let needed = used
                    .iter()
                    .any(|u| &u.action == action && glob_match(pattern, &u.resource));
                if !needed {
                    problems.push(format!(
                        "{function}: its policy grants {action} on {pattern}, which its route never uses"
                    ));
                }
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(list: &[(&str, &str)]) -> BTreeSet<Use> {
        list.iter()
            .map(|(a, r)| Use {
                action: (*a).into(),
                resource: (*r).into(),
            })
            .collect()
    }

    fn statement(actions: &[&str], resources: &[&str]) -> Statement {
        Statement {
            actions: actions.iter().map(|s| (*s).into()).collect(),
            resources: resources.iter().map(|s| (*s).into()).collect(),
        }
    }

    /// The finding that started issue 15: submit-attempt queried the results table with a
    /// policy of GetItem and PutItem only.
    #[test]
    fn a_missing_query_grant_is_refused() {
        let used = uses(&[
            ("dynamodb:GetItem", "ResultsTable"),
            ("dynamodb:PutItem", "ResultsTable"),
            ("dynamodb:Query", "ResultsTable"),
        ]);
        let policy = [statement(
            &["dynamodb:GetItem", "dynamodb:PutItem"],
            &["ResultsTable"],
        )];
        let problems = compare("SubmitAttempt", &policy, &used);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("dynamodb:Query on ResultsTable"));
    }

    #[test]
    fn unused_grants_and_wildcards_are_refused_and_an_exact_policy_passes() {
        let used = uses(&[
            ("s3:GetObject", "MediaBucket/reading/1/d01.svg"),
            ("dynamodb:GetItem", "UsersTable"),
        ]);
        let exact = [
            statement(&["s3:GetObject"], &["MediaBucket/*"]),
            statement(&["dynamodb:GetItem"], &["UsersTable"]),
        ];
        assert!(compare("F", &exact, &used).is_empty());
        let broad = [
            statement(&["s3:GetObject", "s3:PutObject"], &["MediaBucket/*"]),
            statement(&["dynamodb:GetItem"], &["UsersTable", "ResultsTable"]),
            statement(&["dynamodb:*"], &["UsersTable"]),
        ];
        let problems = compare("F", &broad, &used);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("s3:PutObject on MediaBucket/*"))
        );
        assert!(
            problems
                .iter()
                .any(|p| p.contains("GetItem on ResultsTable"))
        );
        assert!(
            problems
                .iter()
                .any(|p| p.contains("wildcard action dynamodb:*"))
        );
        let narrow = [statement(&["s3:GetObject"], &["MediaBucket/tts/*"])];
        assert!(
            compare("F", &narrow, &used)
                .iter()
                .any(|p| p.contains("s3:GetObject on MediaBucket/reading/1/d01.svg"))
        );
    }
}
