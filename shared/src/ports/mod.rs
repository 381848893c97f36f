//! One narrow trait per outside system. Domain code and handlers depend on
//! these traits only; `adapters` implements them, `app` picks one by configuration.

pub mod checkout;
pub mod corrector;
pub mod examiner;
pub mod fields;
pub mod limits;
pub mod media;
pub mod payments;
pub mod results;
pub mod speaking;
pub mod speech;
pub mod store;
pub mod transcriber;
pub mod writing;

pub use corrector::{
    Correction, CorrectionItem, CorrectionRequest, Corrector, CorrectorError, Section,
};
pub use media::{MediaError, MediaKey, MediaStore};
pub use results::{ResultId, ResultRecord, ResultStore};
pub use speech::{SpeechError, SpeechSynth};
pub use store::{StoreError, UserStore, Versioned, update_user};
pub use writing::{WritingResult, WritingStore};
