//! Lambda function: serves the 'transcription' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("transcription").await
}
