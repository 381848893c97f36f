//! Implementations of the ports: embedded ones for the laptop, AWS ones for production.
//! Each is exercised by the same contract suite (`shared/tests/`).

pub mod codec;
pub mod dynamo;
pub mod espeak;
pub mod grammalecte;
pub mod local_checkout;
pub mod local_examiner;
pub mod local_media;
pub mod media_link;
pub mod openai_client;
pub mod openai_corrector;
pub mod openai_examiner;
pub mod openai_speech;
pub mod openai_transcriber;
pub mod s3_media;
pub mod sqlite;
pub mod stripe_checkout;
pub mod whisper;

pub use dynamo::DynamoStore;
pub use espeak::EspeakSynth;
pub use grammalecte::GrammalecteCorrector;
pub use local_checkout::LocalCheckout;
pub use local_examiner::LocalExaminer;
pub use local_media::LocalMedia;
pub use openai_corrector::OpenAiCorrector;
pub use openai_examiner::OpenAiExaminer;
pub use openai_speech::OpenAiSpeech;
pub use openai_transcriber::OpenAiTranscriber;
pub use s3_media::S3Media;
pub use sqlite::SqliteStore;
pub use stripe_checkout::StripeCheckout;
pub use whisper::WhisperTranscriber;
