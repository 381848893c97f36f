//! Offline correction: Grammalecte 2.1.2 (Debian's `python3-grammalecte`), run as ONE
//! long-lived Python worker (`worker.py`, embedded) that speaks JSON lines on
//! stdin/stdout, plus a few hand-written learner rules (`rules.rs`).
//!
//! The worker loads and warms the engine up once (about 0.3 s); requests are
//! serialised by a mutex. A worker that dies or exceeds the timeout is killed and
//! respawned on the next request. Typography-only checks (straight apostrophes,
//! no-break spaces, « » quotes, ellipsis, dashes…) are switched off: they are not
//! learner errors.
//!
//! Offsets: Grammalecte counts code points; Rust strings are UTF-8 bytes. The worker
//! returns code-point offsets into the whole text and [`CharIndex`] converts them.
//!
//! No Hunspell: on the benchmark corpus (`bench/corrector`), Grammalecte's dictionary
//! finds 20 of the 24 annotated misspellings, and the 4 it misses are real words in
//! the wrong place (« le bis », « je vaux », « je vais les habitudes », « il vaut »),
//! which no dictionary check can see; « je vaux » and « il vaut » are caught by a rule.
//! What Grammalecte lacked was good suggestions (fesait → fessait): the worker adds the
//! dictionary words one edit away, ranked for learners ([`choose_spelling`]).

mod rules;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Mutex;

use crate::domain::feedback::general_feedback;
use crate::ports::corrector::{
    Correction, CorrectionItem, CorrectionRequest, Corrector, CorrectorError,
};

/// The worker's source, run with `python -u -c`.
const WORKER: &str = include_str!("worker.py");

/// Default time allowed for one text (a 200-word text takes about 0.1 s).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// Time allowed for the worker to import and warm the engine up.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// Grammalecte's option names (its `sType`) that are typography, not learner errors.
/// The worker switches them off; findings of these types are also dropped here.
const TYPOGRAPHY_TYPES: &[&str] = &[
    "typo", "apos", "eepi", "esp", "tab", "nbsp", "unit", "num", "liga", "chim", "latex", "md",
    "html", "ocr", "mapos", "idrule", "virg", "poncfin", "minis",
];

/// The offline corrector: Grammalecte in a Python worker plus learner rules.
pub struct GrammalecteCorrector {
    python: PathBuf,
    timeout: Duration,
    worker: Mutex<Option<Worker>>,
}

impl std::fmt::Debug for GrammalecteCorrector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GrammalecteCorrector")
            .field("python", &self.python)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl GrammalecteCorrector {
    /// Starts the worker with this Python interpreter (Debian's is `/usr/bin/python3`)
    /// and waits until the engine is loaded and warmed up.
    pub async fn start(python: impl Into<PathBuf>) -> Result<Self, CorrectorError> {
        let python = python.into();
        let worker = Worker::spawn(&python).await?;
        Ok(Self {
            python,
            timeout: DEFAULT_TIMEOUT,
            worker: Mutex::new(Some(worker)),
        })
    }

    /// The time allowed for one text before the worker is killed (default 5 s).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Whether this interpreter can import Grammalecte (a quick check, about 0.2 s).
    pub async fn is_available(python: impl AsRef<Path>) -> bool {
        let run = Command::new(python.as_ref())
            .args(["-c", "import grammalecte"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .status();
        matches!(tokio::time::timeout(Duration::from_secs(10), run).await, Ok(Ok(status)) if status.success())
    }

    /// Starts the worker if it is not running (after a crash or a timeout).
    async fn ensure_worker(&self) -> Result<(), CorrectorError> {
        let mut guard = self.worker.lock().await;
        if guard.as_mut().is_some_and(|worker| !worker.is_alive()) {
            tracing::warn!("the Grammalecte worker has exited; starting a new one");
            *guard = None;
        }
        if guard.is_none() {
            *guard = Some(Worker::spawn(&self.python).await?);
        }
        Ok(())
    }

    /// Grammalecte's raw findings for a text, from the worker (respawned if needed).
    async fn check(&self, text: &str) -> Result<WorkerAnswer, CorrectorError> {
        let mut guard = self.worker.lock().await;
        if guard.as_mut().is_some_and(|worker| !worker.is_alive()) {
            tracing::warn!("the Grammalecte worker has exited; starting a new one");
            *guard = None;
        }
        let worker = match guard.as_mut() {
            Some(worker) => worker,
            None => guard.insert(Worker::spawn(&self.python).await?),
        };
        let answer = match tokio::time::timeout(self.timeout, worker.ask(text)).await {
            Ok(Ok(answer)) => return Ok(answer),
            Ok(Err(e)) => e,
            Err(_) => {
                CorrectorError::Timeout(u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX))
            }
        };
        tracing::warn!(error = %answer, "Grammalecte request failed; the worker is stopped and will be respawned");
        if let Some(mut worker) = guard.take() {
            worker.kill().await;
        }
        Err(answer)
    }
}

#[async_trait]
impl Corrector for GrammalecteCorrector {
    async fn correct(&self, request: &CorrectionRequest) -> Result<Correction, CorrectorError> {
        let text = request.text.as_str();
        let answer = self.check(text).await?;
        let findings = collect_findings(text, &answer)?;
        let (corrected_text, corrections) = build(text, findings);
        let general_feedback = general_feedback(request.section, text, corrections.len());
        Ok(Correction {
            corrected_text,
            corrections,
            general_feedback,
        })
    }

    /// The worker is warmed up when it starts; this restarts it if it has died.
    async fn warm_up(&self) -> Result<(), CorrectorError> {
        self.ensure_worker().await
    }
}

// ---------------------------------------------------------------------------------
// The worker process.

struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    next_id: u64,
}

#[derive(Serialize)]
struct WorkerRequest<'a> {
    id: u64,
    text: &'a str,
}

#[derive(Deserialize)]
struct WorkerReady {
    ready: bool,
    #[serde(default)]
    version: String,
    #[serde(default)]
    error: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct WorkerAnswer {
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    grammar: Vec<RawGrammar>,
    #[serde(default)]
    spelling: Vec<RawSpelling>,
    #[serde(default)]
    lexicon: Lexicon,
    #[serde(default)]
    error: Option<String>,
}

/// A grammar finding, offsets in code points of the whole text.
#[derive(Debug, Clone, Default, Deserialize)]
struct RawGrammar {
    start: usize,
    end: usize,
    #[serde(default)]
    rule: String,
    #[serde(default, rename = "type")]
    kind: String,
    #[serde(default)]
    message: String,
    #[serde(default)]
    suggestions: Vec<String>,
}

/// A spelling finding, offsets in code points of the whole text.
#[derive(Debug, Clone, Default, Deserialize)]
struct RawSpelling {
    start: usize,
    end: usize,
    #[serde(default)]
    word: String,
    #[serde(default)]
    suggestions: Vec<String>,
    /// Dictionary words one edit away or differing by accents (the worker's).
    #[serde(default)]
    close: Vec<String>,
}

/// What the worker knows of one word of the text (lowercase): Grammalecte's
/// morphologies (`>lemma/:tags/*`), the third person plural of a third person
/// singular verb (same tense), and the plural of a singular noun.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct LexEntry {
    #[serde(default)]
    pub morph: Vec<String>,
    #[serde(default)]
    pub v3p: Option<String>,
    #[serde(default)]
    pub pl: Option<String>,
    /// For an infinitive: its present tense, by person (`1s`, `2s`, `3s`, `3p`).
    #[serde(default)]
    pub present: HashMap<String, String>,
}

/// The words of a text, by lowercase form.
pub(crate) type Lexicon = HashMap<String, LexEntry>;

impl Worker {
    async fn spawn(python: &Path) -> Result<Self, CorrectorError> {
        let mut child = Command::new(python)
            .args(["-u", "-c", WORKER])
            .env("PYTHONIOENCODING", "utf-8")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| {
                CorrectorError::Unavailable(format!(
                    "cannot run {} ({e}); install Grammalecte with `apt-get install python3-grammalecte`",
                    python.display()
                ))
            })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(CorrectorError::Unavailable(
                "the Grammalecte worker has no pipes".into(),
            ));
        };
        let pid = child.id();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tracing::warn!(pid, "grammalecte worker: {line}");
            }
        });
        let mut worker = Self {
            child,
            stdin,
            stdout: BufReader::new(stdout).lines(),
            next_id: 0,
        };
        let ready =
            match tokio::time::timeout(START_TIMEOUT, worker.read_json::<WorkerReady>()).await {
                Ok(Ok(ready)) => ready,
                Ok(Err(e)) => {
                    worker.kill().await;
                    return Err(e);
                }
                Err(_) => {
                    worker.kill().await;
                    return Err(CorrectorError::Timeout(
                        u64::try_from(START_TIMEOUT.as_millis()).unwrap_or(u64::MAX),
                    ));
                }
            };
        if !ready.ready {
            worker.kill().await;
            return Err(CorrectorError::Unavailable(format!(
                "Grammalecte cannot start: {}; install it with `apt-get install python3-grammalecte`",
                ready.error.unwrap_or_default()
            )));
        }
        tracing::info!(pid, version = %ready.version, "Grammalecte worker ready");
        Ok(worker)
    }

    fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    async fn kill(&mut self) {
        if let Err(e) = self.child.kill().await {
            tracing::debug!(error = %e, "killing the Grammalecte worker");
        }
    }

    /// The next JSON line of stdout (lines that are not JSON objects are logged and skipped).
    async fn read_json<T: for<'de> Deserialize<'de>>(&mut self) -> Result<T, CorrectorError> {
        loop {
            let line = self
                .stdout
                .next_line()
                .await
                .map_err(|e| {
                    CorrectorError::Unavailable(format!("reading the Grammalecte worker: {e}"))
                })?
                .ok_or_else(|| {
                    CorrectorError::Unavailable("the Grammalecte worker exited".into())
                })?;
            if !line.trim_start().starts_with('{') {
                tracing::debug!("grammalecte worker stdout: {line}");
                continue;
            }
            return serde_json::from_str(&line).map_err(|e| {
                CorrectorError::Malformed(format!("Grammalecte worker line ({e}): {line}"))
            });
        }
    }

    async fn ask(&mut self, text: &str) -> Result<WorkerAnswer, CorrectorError> {
        self.next_id += 1;
        let id = self.next_id;
        let mut line = serde_json::to_vec(&WorkerRequest { id, text })
            .map_err(|e| CorrectorError::Unavailable(format!("encoding the request: {e}")))?;
        line.push(b'\n');
        let sent = async {
            self.stdin.write_all(&line).await?;
            self.stdin.flush().await
        };
        sent.await.map_err(|e| {
            CorrectorError::Unavailable(format!("writing to the Grammalecte worker: {e}"))
        })?;
        loop {
            let answer: WorkerAnswer = self.read_json().await?;
            match answer.id {
                Some(got) if got == id => {
                    return match answer.error {
                        Some(error) => Err(CorrectorError::Unavailable(format!(
                            "Grammalecte failed: {error}"
                        ))),
                        None => Ok(answer),
                    };
                }
                other => tracing::warn!(?other, id, "skipping a stale Grammalecte answer"),
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// From raw findings to correction items (pure, unit-tested).

/// Converts code-point offsets (Python) to byte offsets (Rust) for one text.
#[derive(Debug)]
struct CharIndex {
    bytes: Vec<usize>,
}

impl CharIndex {
    fn new(text: &str) -> Self {
        let mut bytes: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        bytes.push(text.len());
        Self { bytes }
    }

    /// The byte offset of the `index`-th code point (`len` for the end), if in range.
    fn byte(&self, index: usize) -> Option<usize> {
        self.bytes.get(index).copied()
    }
}

/// Where a finding comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    Grammar,
    Spelling,
    Rule,
}

/// One error found in the text: a byte span, its replacement and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
    pub explanation: String,
    pub source: Source,
}

/// Grammalecte's answer and the learner rules, as byte-offset findings, filtered.
fn collect_findings(text: &str, answer: &WorkerAnswer) -> Result<Vec<Finding>, CorrectorError> {
    let index = CharIndex::new(text);
    let span = |start: usize, end: usize| -> Result<(usize, usize), CorrectorError> {
        match (index.byte(start), index.byte(end)) {
            (Some(s), Some(e)) if s < e => Ok((s, e)),
            _ => Err(CorrectorError::Malformed(format!(
                "Grammalecte span {start}..{end} is outside the text ({} characters)",
                index.bytes.len() - 1
            ))),
        }
    };
    let curly = text.contains('’');
    let mut findings = Vec::new();
    let mut grammar = Vec::new();
    for raw in &answer.grammar {
        if TYPOGRAPHY_TYPES.contains(&raw.kind.as_str()) {
            continue;
        }
        let (start, end) = span(raw.start, raw.end)?;
        grammar.push((start, end, raw));
    }
    // Verbs Grammalecte wants to conjugate differently: an agreement finding that
    // follows the verb as written ("Accord avec la forme verbale “était”") is dropped.
    let conj_words: Vec<&str> = grammar
        .iter()
        .filter(|(_, _, raw)| raw.kind == "conj")
        .map(|(s, e, _)| &text[*s..*e])
        .collect();
    for (start, end, raw) in grammar {
        let original = &text[start..end];
        if matches!(raw.kind.as_str(), "ppas" | "gn")
            && quoted_words(&raw.message)
                .iter()
                .any(|q| conj_words.contains(&q.as_str()))
        {
            tracing::debug!(rule = %raw.rule, "dropping an agreement that follows a misconjugated verb");
            continue;
        }
        if drops_a_mark_against_a_subject(raw, original, curly) {
            tracing::debug!(rule = %raw.rule, "dropping an agreement that removes a mark");
            continue;
        }
        let Some(replacement) = raw
            .suggestions
            .iter()
            .map(|s| normalise_suggestion(s, curly))
            .find(|s| !same_but_typography(s, original))
        else {
            continue;
        };
        let (start, replacement) = contract_article(text, start, end, &replacement);
        findings.push(Finding {
            start,
            end,
            replacement: match_case(&text[start..end], &replacement),
            explanation: clean_message(&raw.message),
            source: Source::Grammar,
        });
    }
    for raw in &answer.spelling {
        let (start, end) = span(raw.start, raw.end)?;
        let word = &text[start..end];
        if word != raw.word {
            return Err(CorrectorError::Malformed(format!(
                "Grammalecte span {}..{} reads “{word}”, not “{}”",
                raw.start, raw.end, raw.word
            )));
        }
        if !spelling_worth_flagging(text, start, word) {
            continue;
        }
        let Some(replacement) = choose_spelling(word, &raw.suggestions, &raw.close) else {
            continue;
        };
        if !plausible_fix(text, start, word, &replacement) {
            continue;
        }
        let replacement = match_case(word, &normalise_suggestion(&replacement, curly));
        findings.push(Finding {
            start,
            end,
            explanation: format!("Orthographe : “{word}” n'existe pas ; on écrit “{replacement}”."),
            replacement,
            source: Source::Spelling,
        });
    }
    findings.extend(rules::find(text, &answer.lexicon));
    Ok(findings)
}

/// An agreement finding that would remove a plural or feminine ending to follow the
/// verb or the subject (“les gens est très fiers” → “fier”): the learner marked the
/// word on purpose, so the verb or subject is the likelier error. Dropped.
fn drops_a_mark_against_a_subject(raw: &RawGrammar, original: &str, curly: bool) -> bool {
    if !matches!(raw.kind.as_str(), "ppas" | "gn") {
        return false;
    }
    let follows = [
        "forme verbale",
        "Accord avec le sujet",
        "Accord de nombre erroné avec",
    ];
    if !follows.iter().any(|f| raw.message.contains(f)) {
        return false;
    }
    raw.suggestions.first().is_some_and(|s| {
        let s = normalise_suggestion(s, curly);
        original
            .strip_prefix(s.as_str())
            .is_some_and(|tail| matches!(tail, "s" | "e" | "es" | "x"))
    })
}

/// “de la lait” → Grammalecte says “le”; French says “du” (and “à le” → “au”).
/// Returns the finding's new start (the preposition's) and replacement.
fn contract_article(text: &str, start: usize, end: usize, replacement: &str) -> (usize, String) {
    let original = &text[start..end];
    let article = matches!(original.to_lowercase().as_str(), "la" | "les" | "l'" | "l’");
    if !article || !matches!(replacement.to_lowercase().as_str(), "le" | "les") {
        return (start, replacement.to_string());
    }
    let next_is_consonant = text[end..]
        .trim_start_matches(' ')
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() && !"aeiouyhâàéèêîïôûœAEIOUYHÂÀÉÈÊÎÏÔÛŒ".contains(c));
    let Some(prep_start) = previous_word(text, start) else {
        return (start, replacement.to_string());
    };
    let prep = &text[prep_start..start];
    let contracted = match (
        prep.trim_end().to_lowercase().as_str(),
        replacement.to_lowercase().as_str(),
    ) {
        ("de", "le") => "du",
        ("à", "le") => "au",
        ("de", "les") => "des",
        ("à", "les") => "aux",
        _ => return (start, replacement.to_string()),
    };
    if !next_is_consonant && contracted.len() == 2 {
        return (start, replacement.to_string());
    }
    (prep_start, match_case(prep, contracted))
}

/// Words quoted in a Grammalecte message (“…” or « … »), without trailing ellipsis.
fn quoted_words(message: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (open, close) in [('“', '”'), ('«', '»')] {
        let mut rest = message;
        while let Some(i) = rest.find(open) {
            let after = &rest[i + open.len_utf8()..];
            let Some(j) = after.find(close) else { break };
            let quoted = after[..j].trim().trim_end_matches('…').trim();
            out.push(quoted.to_string());
            rest = &after[j + close.len_utf8()..];
        }
    }
    out
}

/// A suggestion with straight apostrophes, unless the learner types curly ones.
fn normalise_suggestion(suggestion: &str, curly: bool) -> String {
    if curly {
        suggestion.to_string()
    } else {
        suggestion.replace('’', "'")
    }
}

/// Whether two strings differ only by apostrophes, spaces or quotes.
fn same_but_typography(a: &str, b: &str) -> bool {
    let key = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '«' | '»' | '"' | '“' | '”'))
            .map(|c| if c == '’' { '\'' } else { c })
            .collect()
    };
    key(a) == key(b)
}

/// Grammalecte's message, tidied: no footnote marks, single spaces, a final full stop.
fn clean_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find(" [") {
        let after = &rest[i + 2..];
        match after.find(']') {
            Some(j) if j <= 3 && after[..j].chars().all(|c| c.is_ascii_digit()) => {
                out.push_str(&rest[..i]);
                rest = &after[j + 1..];
            }
            _ => {
                out.push_str(&rest[..i + 2]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    let mut text = out.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        text = "Erreur de grammaire.".into();
    } else if !text.ends_with(['.', '!', '?', '…']) {
        text.push('.');
    }
    text
}

/// The replacement with the original's capital first letter, if it had one.
fn match_case(original: &str, replacement: &str) -> String {
    let upper = original.chars().next().is_some_and(char::is_uppercase);
    let mut chars = replacement.chars();
    match chars.next() {
        Some(first) if upper && first.is_lowercase() => first.to_uppercase().chain(chars).collect(),
        _ => replacement.to_string(),
    }
}

/// Spelling findings worth showing: not a proper noun (a capital inside a sentence),
/// not an acronym, not a number, not a lone letter.
fn spelling_worth_flagging(text: &str, start: usize, word: &str) -> bool {
    if word.chars().count() < 2 || word.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    let capitals = word.chars().filter(|c| c.is_uppercase()).count();
    if capitals > 1 {
        return false;
    }
    if capitals == 1 && word.chars().next().is_some_and(char::is_uppercase) {
        return is_sentence_start(text, start);
    }
    true
}

/// Whether a spelling fix is worth showing. A word far from every dictionary word is
/// more often a rare word or a name the dictionary lacks (« navettage », « Kelowna »,
/// « condo ») than a learner's slip: on 57,000 words of the app's own correct French
/// (the reading and listening documents), such fixes were nearly all false alarms,
/// while the corpus's misspellings are all within two slips. So: the learner table,
/// or at most two ordinary edits (only one slip for a short word or a capitalised
/// one, which may be a name), never a split (« bio éthicienne »), never inside an
/// address (« exemple.ca »).
fn plausible_fix(text: &str, start: usize, word: &str, replacement: &str) -> bool {
    let end = start + word.len();
    let glued = |c: Option<char>| c.is_some_and(|c| matches!(c, '.' | '/' | '@' | '_' | ':'));
    let next_after = text[end..]
        .chars()
        .nth(1)
        .is_some_and(char::is_alphanumeric);
    let prev_before = text[..start]
        .chars()
        .rev()
        .nth(1)
        .is_some_and(char::is_alphanumeric);
    if (glued(text[end..].chars().next()) && next_after)
        || (glued(text[..start].chars().next_back()) && prev_before)
    {
        return false;
    }
    let lower = word.to_lowercase();
    if LEARNER_SPELLING.iter().any(|(wrong, _)| *wrong == lower) {
        return true;
    }
    let replacement = replacement.to_lowercase().replace('’', "'");
    if replacement.contains([' ', '\'']) && !word.contains([' ', '\'', '’']) {
        return false;
    }
    let capital = word.chars().next().is_some_and(char::is_uppercase);
    let limit = if capital || word.chars().count() <= 6 {
        1
    } else {
        4
    };
    learner_distance(&lower, &replacement) <= limit
}

/// Whether the word at `start` begins a sentence (or a paragraph).
fn is_sentence_start(text: &str, start: usize) -> bool {
    let before = text[..start].trim_end_matches([' ', '\t', '\u{a0}']);
    match before.chars().last() {
        None => true,
        Some(c) => matches!(
            c,
            '.' | '!' | '?' | '\n' | '\r' | '…' | '«' | '"' | '“' | ':' | '-' | '—' | '–'
        ),
    }
}

/// Frequent learner misspellings whose right form Grammalecte does not suggest first.
const LEARNER_SPELLING: &[(&str, &str)] = &[
    ("fesait", "faisait"),
    ("fesais", "faisais"),
    ("fesaient", "faisaient"),
    ("fesons", "faisons"),
    ("beaucoups", "beaucoup"),
    ("developpement", "développement"),
    ("dévelopement", "développement"),
    ("developement", "développement"),
    ("enviroment", "environnement"),
    ("environement", "environnement"),
    ("apeller", "appeler"),
    ("appeller", "appeler"),
    ("addresse", "adresse"),
    ("comfortable", "confortable"),
    ("example", "exemple"),
    ("gouvernment", "gouvernement"),
    ("gouvernemment", "gouvernement"),
    ("aujourdhui", "aujourd'hui"),
    ("malheuresement", "malheureusement"),
    ("heureusment", "heureusement"),
    ("finalment", "finalement"),
    ("vraiement", "vraiment"),
    ("evidement", "évidemment"),
    ("évidement", "évidemment"),
    ("recemment", "récemment"),
    ("connection", "connexion"),
    ("traffic", "trafic"),
    ("personel", "personnel"),
    ("personelle", "personnelle"),
    ("néccessaire", "nécessaire"),
    ("interressant", "intéressant"),
    ("parceque", "parce que"),
    ("eleve", "élève"),
    ("eleves", "élèves"),
    ("avont", "avons"),
    ("concient", "conscient"),
    ("conciente", "consciente"),
    ("programa", "programme"),
    ("problem", "problème"),
];

/// The best spelling suggestion: the learner table first, then Grammalecte's
/// suggestions and the worker's close words (one edit away, or accents only), ranked
/// by a learner-weighted edit distance ([`learner_distance`]); a capitalised or
/// split suggestion for a plain word is penalised; Grammalecte's order breaks ties.
///
/// Measured on the corpus (24 spelling errors): Grammalecte's first suggestion fixed
/// 15 of the 20 it found (fesait → fessait, bays → bayez, corage → saurage…).
fn choose_spelling(word: &str, suggestions: &[String], close: &[String]) -> Option<String> {
    let lower = word.to_lowercase();
    if let Some((_, right)) = LEARNER_SPELLING
        .iter()
        .find(|(wrong, right)| *wrong == lower && wrong != right)
    {
        return Some((*right).to_string());
    }
    let plain_word = !word.contains([' ', '-', '\'', '’']);
    suggestions
        .iter()
        .chain(close)
        .enumerate()
        .filter(|(_, s)| !s.is_empty() && s.to_lowercase() != lower)
        .min_by_key(|(i, s)| {
            let s_lower = s.to_lowercase().replace('’', "'");
            let capital = usize::from(
                s.chars().next().is_some_and(char::is_uppercase)
                    && !word.chars().next().is_some_and(char::is_uppercase),
            );
            let split = usize::from(plain_word && s_lower.contains([' ', '-', '\'']));
            // On a tie, a missing accent is likelier than any other slip.
            let accents_only = strip_accents(&s_lower) == strip_accents(&lower);
            // Then a word with the same first letter (plourait → pleurait, not lourait).
            // (b/p and f/v count as the same letter: « boste » is « poste », not « booste »).
            let first = |w: &str| {
                strip_accents(w).chars().next().map(|c| match c {
                    'p' => 'b',
                    'v' => 'f',
                    c => c,
                })
            };
            (
                learner_distance(&lower, &s_lower) + 2 * capital + 2 * split,
                !accents_only,
                first(&lower) != first(&s_lower),
                *i,
            )
        })
        .map(|(_, s)| s.clone())
}

/// Edit distance weighted for learners (costs doubled: 2 for an ordinary edit, 1 for
/// a likely slip): a missing or wrong accent, a doubled or single consonant, b/p
/// and f/v (Arabic speakers), o/ou.
fn learner_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let plain = |c: char| strip_accents(&c.to_string());
    let substitution = |x: char, y: char| -> usize {
        if x == y {
            0
        } else if plain(x) == plain(y)
            || matches!((x, y), ('b', 'p') | ('p', 'b') | ('f', 'v') | ('v', 'f'))
        {
            1
        } else {
            2
        }
    };
    // Inserting or deleting s[i] is a slip when it doubles its neighbour or makes “ou”.
    let indel = |s: &[char], i: usize| -> usize {
        let c = s[i];
        let prev = i.checked_sub(1).map(|j| s[j]);
        let next = s.get(i + 1).copied();
        if prev == Some(c) || next == Some(c) || (c == 'u' && prev == Some('o')) {
            1
        } else {
            2
        }
    };
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for j in 1..=b.len() {
        row[j] = row[j - 1] + indel(&b, j - 1);
    }
    for i in 1..=a.len() {
        let mut prev_diag = row[0];
        row[0] += indel(&a, i - 1);
        for j in 1..=b.len() {
            let above = row[j];
            row[j] = (prev_diag + substitution(a[i - 1], b[j - 1]))
                .min(above + indel(&a, i - 1))
                .min(row[j - 1] + indel(&b, j - 1));
            prev_diag = above;
        }
    }
    row[b.len()]
}

/// Lowercase letters without their accents (é → e, ç → c, œ → oe).
fn strip_accents(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            'à' | 'â' | 'ä' | 'á' => out.push('a'),
            'é' | 'è' | 'ê' | 'ë' => out.push('e'),
            'î' | 'ï' | 'í' => out.push('i'),
            'ô' | 'ö' | 'ó' => out.push('o'),
            'ù' | 'û' | 'ü' | 'ú' => out.push('u'),
            'ÿ' => out.push('y'),
            'ç' => out.push('c'),
            'œ' => out.push_str("oe"),
            'æ' => out.push_str("ae"),
            _ => out.push(c),
        }
    }
    out
}

/// Word characters: letters, digits, and the hyphen or apostrophe inside a word.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
}

fn is_joiner(c: char) -> bool {
    matches!(c, '-' | '\'' | '’')
}

/// Extends `start` left to the beginning of its word (through hyphens and elisions).
fn word_start(text: &str, mut start: usize) -> usize {
    loop {
        let Some(c) = text[..start].chars().next_back() else {
            return start;
        };
        let joins = is_joiner(c)
            && text[..start - c.len_utf8()]
                .chars()
                .next_back()
                .is_some_and(is_word_char);
        if is_word_char(c) || joins {
            start -= c.len_utf8();
        } else {
            return start;
        }
    }
}

/// Extends `end` right to the end of its word (through hyphens, not apostrophes).
fn word_end(text: &str, mut end: usize) -> usize {
    loop {
        let Some(c) = text[end..].chars().next() else {
            return end;
        };
        if is_word_char(c) {
            end += c.len_utf8();
        } else if c == '-' && text[end + 1..].chars().next().is_some_and(is_word_char) {
            end += 1;
        } else {
            return end;
        }
    }
}

/// The core span of a finding: whole words, and the next word when the flagged span
/// ends with a space or an apostrophe (an elision: “Je ” → “J'” must show “Je ai”).
fn widen(text: &str, start: usize, end: usize) -> (usize, usize) {
    let start = word_start(text, start);
    let flagged = &text[start..end];
    let end = if flagged.ends_with([' ', '\'', '’']) {
        let next = end + (text[end..].len() - text[end..].trim_start_matches(' ').len());
        word_end(text, next)
    } else {
        word_end(text, end)
    };
    (start, end.max(start))
}

/// The previous word (separated by spaces only, same sentence): its start.
fn previous_word(text: &str, start: usize) -> Option<usize> {
    let before = text[..start].trim_end_matches(' ');
    if before.len() == start
        || before.is_empty()
        || !before.chars().next_back().is_some_and(is_word_char)
    {
        return None;
    }
    Some(word_start(text, before.len()))
}

/// The next word (separated by spaces only, same sentence): its end.
fn next_word(text: &str, end: usize) -> Option<usize> {
    let after = text[end..].trim_start_matches(' ');
    let gap = text[end..].len() - after.len();
    if gap == 0 || !after.chars().next().is_some_and(is_word_char) {
        return None;
    }
    Some(word_end(text, end + gap))
}

/// One accepted finding, with its span widened to whole words.
#[derive(Debug, Clone)]
struct Placed {
    start: usize,
    end: usize,
    replacement: String,
    explanation: String,
}

/// Whether two spans overlap or touch (only spaces between them).
fn touching(text: &str, a: (usize, usize), b: (usize, usize)) -> bool {
    let (first, second) = if a.0 <= b.0 { (a, b) } else { (b, a) };
    first.1 > second.0 || text[first.1..second.0].chars().all(|c| c == ' ')
}

/// Turns findings into non-overlapping items (in text order) and the corrected text.
fn build(text: &str, mut findings: Vec<Finding>) -> (String, Vec<CorrectionItem>) {
    findings.retain(|f| {
        f.start < f.end
            && f.end <= text.len()
            && text.is_char_boundary(f.start)
            && text.is_char_boundary(f.end)
    });
    // Rules first (they are written for learners), then Grammalecte, leftmost first.
    findings.sort_by_key(|f| (f.start, f.end));
    let mut accepted: Vec<(Finding, (usize, usize))> = Vec::new();
    let mut ordered: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.source == Source::Rule)
        .collect();
    ordered.extend(findings.iter().filter(|f| f.source != Source::Rule));
    for finding in ordered {
        let core = widen(text, finding.start, finding.end);
        let clash = accepted.iter().any(|(other, other_core)| {
            let both_spelling =
                other.source == Source::Spelling && finding.source == Source::Spelling;
            if both_spelling {
                core.0 < other_core.1 && other_core.0 < core.1
            } else {
                touching(text, core, *other_core)
            }
        });
        if !clash {
            accepted.push((finding.clone(), core));
        }
    }
    accepted.sort_by_key(|(_, core)| core.0);
    // Context: a one-word phrase gets its neighbour (previous word first), if free.
    let mut placed: Vec<Placed> = Vec::with_capacity(accepted.len());
    for i in 0..accepted.len() {
        let (finding, core) = &accepted[i];
        let (mut start, mut end) = *core;
        // A phrase must be recognisable: two words at least, and found only once in
        // the text (a reader, or the page, looks it up by its text).
        let left_limit = placed.last().map_or(0, |p| p.end);
        let right_limit = accepted.get(i + 1).map_or(text.len(), |(_, c)| c.0);
        for _ in 0..4 {
            let phrase = &text[start..end];
            if phrase.contains(' ') && text.matches(phrase).count() == 1 {
                break;
            }
            // A phrase ending with a small word (an article, a preposition) reads
            // better with the word that follows it.
            let last = phrase.rsplit([' ', '\'', '’']).next().unwrap_or(phrase);
            let right_first = last.chars().count() <= 3;
            let before = previous_word(text, start).filter(|s| *s >= left_limit && *s < start);
            let after = next_word(text, end).filter(|e| *e <= right_limit && *e > end);
            match (before, after) {
                (_, Some(e)) if right_first => end = e,
                (Some(s), _) => start = s,
                (None, Some(e)) => end = e,
                (None, None) => break,
            }
        }
        let replacement = format!(
            "{}{}{}",
            &text[start..finding.start],
            finding.replacement,
            &text[finding.end..end]
        );
        if replacement == text[start..end] {
            continue;
        }
        placed.push(Placed {
            start,
            end,
            replacement,
            explanation: finding.explanation.clone(),
        });
    }
    let mut corrected = text.to_string();
    for p in placed.iter().rev() {
        corrected.replace_range(p.start..p.end, &p.replacement);
    }
    let mut items: Vec<CorrectionItem> = Vec::with_capacity(placed.len());
    for p in placed {
        let item = CorrectionItem {
            original_phrase: text[p.start..p.end].to_string(),
            corrected_phrase: p.replacement,
            explanation: p.explanation,
        };
        if !items.iter().any(|i| {
            i.original_phrase == item.original_phrase && i.corrected_phrase == item.corrected_phrase
        }) {
            items.push(item);
        }
    }
    (corrected, items)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grammar(
        text: &str,
        flagged: &str,
        kind: &str,
        message: &str,
        suggestion: &str,
    ) -> RawGrammar {
        let byte = text.find(flagged).expect("flagged text");
        let start = text[..byte].chars().count();
        RawGrammar {
            start,
            end: start + flagged.chars().count(),
            rule: "r".into(),
            kind: kind.into(),
            message: message.into(),
            suggestions: vec![suggestion.into()],
        }
    }

    fn spelling(text: &str, word: &str, suggestions: &[&str]) -> RawSpelling {
        let byte = text.find(word).expect("word");
        let start = text[..byte].chars().count();
        RawSpelling {
            start,
            end: start + word.chars().count(),
            word: word.into(),
            suggestions: suggestions.iter().map(|s| (*s).to_string()).collect(),
            close: Vec::new(),
        }
    }

    fn run(text: &str, answer: WorkerAnswer) -> (String, Vec<CorrectionItem>) {
        build(text, collect_findings(text, &answer).expect("findings"))
    }

    #[test]
    fn code_points_become_bytes() {
        let index = CharIndex::new("éà b");
        assert_eq!(index.byte(0), Some(0));
        assert_eq!(index.byte(1), Some(2));
        assert_eq!(index.byte(2), Some(4));
        assert_eq!(index.byte(4), Some(6));
        assert_eq!(index.byte(5), None);
    }

    #[test]
    fn accented_text_maps_to_the_right_words() {
        let text = "Hier, à l'école, les élèves était contents.\nÇa fesait plaisir.";
        let answer = WorkerAnswer {
            grammar: vec![grammar(
                text,
                "était",
                "conj",
                "Conjugaison erronée. Accord avec “les élèves…”.",
                "étaient",
            )],
            spelling: vec![spelling(text, "fesait", &["fessait", "ferait"])],
            ..WorkerAnswer::default()
        };
        let (corrected, items) = run(text, answer);
        assert_eq!(
            corrected,
            "Hier, à l'école, les élèves étaient contents.\nÇa faisait plaisir."
        );
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].original_phrase, "élèves était");
        assert_eq!(items[0].corrected_phrase, "élèves étaient");
        assert_eq!(items[1].original_phrase, "Ça fesait");
        assert_eq!(items[1].corrected_phrase, "Ça faisait");
        assert_eq!(
            items[1].explanation,
            "Orthographe : “fesait” n'existe pas ; on écrit “faisait”."
        );
        for item in &items {
            assert!(text.contains(&item.original_phrase));
        }
    }

    #[test]
    fn out_of_range_offsets_are_malformed() {
        let answer = WorkerAnswer {
            grammar: vec![RawGrammar {
                start: 3,
                end: 40,
                kind: "gn".into(),
                ..RawGrammar::default()
            }],
            ..WorkerAnswer::default()
        };
        assert!(matches!(
            collect_findings("abc def", &answer),
            Err(CorrectorError::Malformed(_))
        ));
    }

    #[test]
    fn typography_is_not_a_learner_error() {
        let text = "C'est vrai... « Bonjour » dit-il.";
        let answer = WorkerAnswer {
            grammar: vec![
                grammar(text, "C'", "apos", "Apostrophe typographique.", "C’"),
                grammar(text, "...", "typo", "Points de suspension.", "…"),
                grammar(
                    text,
                    "« ",
                    "nbsp",
                    "Il manque un espace insécable.",
                    "«\u{a0}",
                ),
            ],
            ..WorkerAnswer::default()
        };
        let (corrected, items) = run(text, answer);
        assert!(items.is_empty());
        assert_eq!(corrected, text);
    }

    #[test]
    fn an_elision_shows_the_next_word_with_a_straight_apostrophe() {
        let text = "Je ai un ami.";
        let answer = WorkerAnswer {
            grammar: vec![grammar(
                text,
                "Je ",
                "eleu",
                "Il faut élider le pronom “Je” et l’accoler au verbe.",
                "J’",
            )],
            ..WorkerAnswer::default()
        };
        let (corrected, items) = run(text, answer);
        assert_eq!(corrected, "J'ai un ami.");
        assert_eq!(items[0].original_phrase, "Je ai");
        assert_eq!(items[0].corrected_phrase, "J'ai");
    }

    #[test]
    fn an_agreement_with_a_misconjugated_verb_is_dropped() {
        let text = "Les gens était plus concentrés.";
        let answer = WorkerAnswer {
            grammar: vec![
                grammar(
                    text,
                    "concentrés",
                    "ppas",
                    "Accord avec la forme verbale “était” : “concentrés” devrait être au singulier.",
                    "concentré",
                ),
                grammar(
                    text,
                    "était",
                    "conj",
                    "Conjugaison erronée. Accord avec “Les gens…”.",
                    "étaient",
                ),
            ],
            ..WorkerAnswer::default()
        };
        let (corrected, items) = run(text, answer);
        assert_eq!(corrected, "Les gens étaient plus concentrés.");
        assert_eq!(items.len(), 1);
    }

    #[test]
    fn touching_findings_keep_the_leftmost() {
        let text = "Il ont mangé et elle a acheter du pain.";
        let answer = WorkerAnswer {
            grammar: vec![
                grammar(text, "ont", "conj", "Accord avec “Il”.", "a"),
                grammar(text, "Il", "conj", "Accord avec “ont”.", "Ils"),
                grammar(text, "a acheter", "conf", "Confusion.", "à acheter"),
                grammar(
                    text,
                    "acheter",
                    "ppas",
                    "Incohérence probable avec “avoir”.",
                    "acheté",
                ),
            ],
            ..WorkerAnswer::default()
        };
        let (corrected, items) = run(text, answer);
        assert_eq!(corrected, "Ils ont mangé et elle à acheter du pain.");
        assert_eq!(items.len(), 2);
        assert!(
            items
                .windows(2)
                .all(|w| text.find(&w[0].original_phrase) < text.find(&w[1].original_phrase))
        );
    }

    #[test]
    fn proper_nouns_and_suggestionless_words_are_not_flagged() {
        let text = "Je suis Kwabena, de Lagos. Xyzt est là.";
        let answer = WorkerAnswer {
            spelling: vec![
                spelling(text, "Kwabena", &["Karen"]),
                spelling(text, "Xyzt", &[]),
            ],
            ..WorkerAnswer::default()
        };
        let (corrected, items) = run(text, answer);
        assert!(items.is_empty());
        assert_eq!(corrected, text);
    }

    #[test]
    fn spelling_prefers_close_suggestions() {
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_string()).collect::<Vec<_>>();
        assert_eq!(
            choose_spelling("fesait", &s(&["fessait"]), &[]).as_deref(),
            Some("faisait")
        );
        assert_eq!(
            choose_spelling("proteger", &s(&["protégera", "protéger"]), &[]).as_deref(),
            Some("protéger")
        );
        assert_eq!(
            choose_spelling("beaucoups", &s(&["beau coups", "beaucoup"]), &[]).as_deref(),
            Some("beaucoup")
        );
        assert_eq!(choose_spelling("quelqu", &s(&[]), &[]), None);
        let pick = |w: &str, g: &[&str], c: &[&str]| choose_spelling(w, &s(g), &s(c));
        assert_eq!(
            pick(
                "bays",
                &["bayez", "basse", "bais"],
                &["gays", "pays", "bais"]
            )
            .as_deref(),
            Some("pays")
        );
        assert_eq!(
            pick("corage", &["saurage", "orages"], &["courage", "orage"]).as_deref(),
            Some("courage")
        );
        assert_eq!(
            pick("arriere", &["ânier", "arriéré", "arrière"], &[]).as_deref(),
            Some("arrière")
        );
        assert_eq!(
            pick("borte", &["borde", "bort"], &["porte", "borde"]).as_deref(),
            Some("porte")
        );
        assert_eq!(
            pick("avonz", &["Avon", "avons"], &[]).as_deref(),
            Some("avons")
        );
        assert_eq!(
            pick("succes", &["suces", "succès"], &[]).as_deref(),
            Some("succès")
        );
        assert_eq!(
            pick("plourait", &[], &["lourait", "pleurait"]).as_deref(),
            Some("pleurait")
        );
        assert_eq!(
            pick("boste", &[], &["poste", "booste"]).as_deref(),
            Some("poste")
        );
        assert_eq!(learner_distance("apartement", "appartement"), 1);
        assert_eq!(learner_distance("eleve", "élève"), 2);
        assert_eq!(learner_distance("chat", "chien"), 6);
    }

    #[test]
    fn duplicates_are_listed_once_and_corrected_everywhere() {
        let text = "Il fesait beau.\n\nIl fesait beau.";
        let answer = WorkerAnswer {
            spelling: vec![spelling(text, "fesait", &[]), {
                let mut second = spelling(text, "fesait", &[]);
                second.start += 17;
                second.end += 17;
                second
            }],
            ..WorkerAnswer::default()
        };
        let (corrected, items) = run(text, answer);
        assert_eq!(corrected, "Il faisait beau.\n\nIl faisait beau.");
        assert_eq!(items.len(), 1);
    }

    #[test]
    fn agreement_against_a_marked_word_is_dropped() {
        let text = "Les gens est très fiers. Elle était content.";
        let answer = WorkerAnswer {
            grammar: vec![
                grammar(
                    text,
                    "fiers",
                    "ppas",
                    "Accord avec la forme verbale “est” : “fiers” devrait être au singulier.",
                    "fier",
                ),
                grammar(
                    text,
                    "content",
                    "ppas",
                    "Accord avec le sujet “Elle” : “content” devrait être au féminin.",
                    "contente",
                ),
            ],
            ..WorkerAnswer::default()
        };
        let (corrected, items) = run(text, answer);
        assert_eq!(corrected, "Les gens est très fiers. Elle était contente.");
        assert_eq!(items.len(), 1);
    }

    #[test]
    fn articles_contract_after_de_and_a() {
        let text = "Il boit de la lait et pense à la travail, de la eau.";
        let answer = WorkerAnswer {
            grammar: vec![
                grammar(
                    text,
                    "la lait",
                    "gn",
                    "Accord de genre erroné : « lait » est masculin.",
                    "le",
                ),
                grammar(
                    text,
                    "la travail",
                    "gn",
                    "Accord de genre erroné : « travail » est masculin.",
                    "le",
                ),
            ],
            ..WorkerAnswer::default()
        };
        // The helper flags the two-word spans; narrow them to the article.
        let mut answer = answer;
        for g in &mut answer.grammar {
            g.end = g.start + 2;
        }
        let (corrected, items) = run(text, answer);
        assert_eq!(corrected, "Il boit du lait et pense au travail, de la eau.");
        assert_eq!(items[0].original_phrase, "de la lait");
        assert_eq!(items[0].corrected_phrase, "du lait");
    }

    #[test]
    fn phrases_are_unique_in_the_text() {
        let text = "Les petites villes. Les petit commerces ferment.";
        let answer = WorkerAnswer {
            grammar: vec![grammar(
                text,
                "petit ",
                "gn",
                "Accord de nombre erroné : « petit » devrait être au pluriel.",
                "petits",
            )],
            ..WorkerAnswer::default()
        };
        let mut answer = answer;
        answer.grammar[0].end -= 1;
        let (corrected, items) = run(text, answer);
        assert_eq!(
            corrected,
            "Les petites villes. Les petits commerces ferment."
        );
        assert_eq!(
            text.matches(&items[0].original_phrase).count(),
            1,
            "{:?}",
            items[0]
        );
    }

    #[test]
    fn far_fixes_and_addresses_are_not_shown() {
        assert!(plausible_fix("Il fesait beau.", 3, "fesait", "faisait"));
        assert!(plausible_fix("des pomes", 4, "pomes", "pommes"));
        assert!(!plausible_fix("une app", 4, "app", "api"));
        assert!(!plausible_fix(
            "la bioéthicienne",
            3,
            "bioéthicienne",
            "bio éthicienne"
        ));
        assert!(plausible_fix(
            "Deuxiemement, oui.",
            0,
            "Deuxiemement",
            "Deuxièmement"
        ));
        assert!(!plausible_fix("le navettage", 3, "navettage", "sauvetage"));
        assert!(!plausible_fix("Voir exemple.ca ici", 13, "ca", "ça"));
        assert!(!plausible_fix(
            "Knowlton est loin",
            0,
            "Knowlton",
            "Envolons"
        ));
        assert!(plausible_fix(
            "Finalment, non.",
            0,
            "Finalment",
            "Finalement"
        ));
    }

    /// The real worker (Debian's python3-grammalecte, as in the contract suite): accented
    /// offsets end to end, then a request over its time limit kills the worker and the
    /// next request starts a new one.
    #[tokio::test]
    async fn the_worker_corrects_times_out_and_comes_back() {
        let mut c = GrammalecteCorrector::start("/usr/bin/python3")
            .await
            .expect("worker");
        let request = |text: &str| CorrectionRequest {
            section: crate::domain::writing::Section::A,
            text: text.into(),
            prompt: String::new(),
            document: String::new(),
        };
        let text = "Hier, à l'école, les élèves était contents.\n\nIl fesait très beau.";
        let r = c.correct(&request(text)).await.expect("correction");
        assert_eq!(
            r.corrected_text,
            "Hier, à l'école, les élèves étaient contents.\n\nIl faisait très beau."
        );
        assert!(
            r.corrections
                .iter()
                .all(|i| text.contains(&i.original_phrase)),
            "{:?}",
            r.corrections
        );

        // A long text, so that the worker cannot answer within the millisecond: a short
        // one can, on a fast machine, and then nothing times out.
        let long = format!("{text}\n\n").repeat(300);
        c.timeout = Duration::from_millis(1);
        let err = c.correct(&request(&long)).await.expect_err("too slow");
        assert!(matches!(err, CorrectorError::Timeout(1)), "{err}");
        c.timeout = DEFAULT_TIMEOUT;
        c.warm_up().await.expect("a new worker");
        let again = c
            .correct(&request(text))
            .await
            .expect("correction after a restart");
        assert_eq!(again, r);
        assert!(GrammalecteCorrector::is_available("/usr/bin/python3").await);
        assert!(!GrammalecteCorrector::is_available("/nonexistent/python3").await);
    }

    #[test]
    fn messages_are_tidied() {
        assert_eq!(
            clean_message("Tiret : un tiret [1] ou [2]  requis"),
            "Tiret : un tiret ou requis."
        );
        assert_eq!(clean_message(""), "Erreur de grammaire.");
        assert_eq!(
            quoted_words("Accord avec “Les gens…” et « bonne »."),
            vec!["Les gens", "bonne"]
        );
    }
}
