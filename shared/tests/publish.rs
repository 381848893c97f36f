//! Publishing listening audio for real: espeak-ng speaks, ffmpeg joins,
//! evens out the loudness and encodes; the clips land in a local media store
//! and a second run renders nothing.

use shared::adapters::{EspeakSynth, LocalMedia};
use shared::catalogue::Catalogue;
use shared::ports::media::MediaStore;
use shared::ports::speech::SpeechSynth;
use shared::publish::{TARGET_LUFS, audio_key, render_audio};
use tokio::process::Command;

const VOICES: &str = include_str!("../../content/voices.json");

/// A listening paper of two questions: a quiet, slow voice then a loud, fast one
/// in the first; one announcer in the second.
fn catalogue() -> Catalogue {
    let question = |n: u32, lines: &[(&str, &str)]| {
        serde_json::json!({
            "number": n, "part": "image-matching", "level": 4,
            "audio": lines.iter().map(|(s, t)| serde_json::json!({"speaker": s, "text": t})).collect::<Vec<_>>(),
            "prompt": "Que dit-on ?", "options": ["a", "b", "c", "d"], "answer": 0,
            "explanation": "Because the script says so, plainly."
        })
    };
    let test = serde_json::json!({
        "format": 1, "category": "listening", "id": 7, "title": "Listening Test 7",
        "questions": [
            question(1, &[
                ("homme-3", "Bonjour, je voudrais un billet pour Rimouski, s'il vous plaît."),
                ("femme-3", "Aller simple ou aller-retour ? Le prochain départ est à quinze heures dix."),
            ]),
            question(2, &[("annonce", "Le magasin fermera ses portes dans dix minutes. Merci de vous diriger vers les caisses.")]),
        ]
    })
    .to_string();
    Catalogue::from_files(&[("voices.json", VOICES), ("listening/test-07.json", &test)]).unwrap()
}

/// (integrated loudness in LUFS, true peak in dBFS, seconds) of an audio
/// file, measured by ffmpeg.
async fn measure(path: &std::path::Path) -> (f32, f32, f32) {
    let out = Command::new("ffmpeg")
        .args(["-hide_banner", "-nostats", "-i"])
        .arg(path)
        .args(["-af", "ebur128=peak=true", "-f", "null", "-"])
        .output()
        .await
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    let value = |prefix: &str, suffix: &str| -> f32 {
        log.lines()
            .filter_map(|l| l.trim().strip_prefix(prefix)?.trim().strip_suffix(suffix))
            .next_back()
            .unwrap_or_else(|| panic!("no {prefix} in {log}"))
            .trim()
            .parse()
            .unwrap()
    };
    let time = log
        .lines()
        .rev()
        .find_map(|l| {
            l.split(" t: ")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(0.0);
    (value("I:", "LUFS"), value("Peak:", "dBFS"), time)
}

#[tokio::test]
async fn every_clip_is_rendered_once_at_the_same_loudness() {
    let dir = tempfile::tempdir().unwrap();
    let media = LocalMedia::new(dir.path(), vec![7; 32]);
    let catalogue = catalogue();
    let mut seen = Vec::new();
    let report = render_audio(&catalogue, &EspeakSynth, &media, &mut |p| {
        seen.push((p.done, p.total, p.rendered));
    })
    .await
    .unwrap();
    assert_eq!((report.written, report.unchanged), (2, 0));
    seen.sort_unstable();
    assert_eq!(seen, vec![(1, 2, true), (2, 2, true)]);

    let test = catalogue
        .test(shared::domain::scoring::Paper::Listening, 7)
        .unwrap();
    for q in &test.questions {
        let key = audio_key(test, q, &catalogue.cast, EspeakSynth.engine_id()).unwrap();
        let bytes = media
            .get(&key)
            .await
            .unwrap()
            .expect("the clip is in the store");
        assert!(
            bytes.starts_with(b"ID3") || bytes[0] == 0xFF,
            "question {} is not an MP3",
            q.number
        );
        let path = dir.path().join(key.as_str());
        let (lufs, peak, seconds) = measure(&path).await;
        assert!(
            (lufs - TARGET_LUFS).abs() <= 1.5,
            "question {}: {lufs} LUFS, expected {TARGET_LUFS}",
            q.number
        );
        assert!(peak <= -1.0, "question {}: peak {peak} dBFS", q.number);
        assert!(
            (3.0..15.0).contains(&seconds),
            "question {}: {seconds} s",
            q.number
        );
    }

    let again = render_audio(&catalogue, &EspeakSynth, &media, &mut |_| {})
        .await
        .unwrap();
    assert_eq!((again.written, again.unchanged), (0, 2));
}
