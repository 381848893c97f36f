//! Offline speech: espeak-ng, from Debian's packages. French voices fr-fr,
//! fr-be and fr-ch, with the variant, pitch and speed of each cast member.

use async_trait::async_trait;
use bytes::Bytes;
use tokio::process::Command;

use crate::domain::content::Voice;
use crate::ports::speech::{SpeechError, SpeechSynth};

#[derive(Debug, Clone, Default)]
pub struct EspeakSynth;

#[async_trait]
impl SpeechSynth for EspeakSynth {
    fn engine_id(&self) -> &str {
        "espeak-ng-1"
    }

    async fn synthesize(&self, text: &str, voice: &Voice) -> Result<Bytes, SpeechError> {
        let out = Command::new("espeak-ng")
            .arg("--stdout")
            .args(["-v", &voice.espeak.voice])
            .args(["-p", &voice.espeak.pitch.to_string()])
            .args(["-s", &voice.espeak.speed.to_string()])
            .arg("--")
            .arg(text)
            .kill_on_drop(true)
            .output()
            .await
            .map_err(|e| {
                SpeechError::Unavailable(format!(
                    "cannot run espeak-ng ({e}); install it with `apt-get install espeak-ng`"
                ))
            })?;
        if !out.status.success() || out.stdout.len() < 44 {
            return Err(SpeechError::Failed(format!(
                "espeak-ng exited with {}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        Ok(Bytes::from(out.stdout))
    }
}
