//! Lambda function: serves the 'text-to-speech' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("text-to-speech").await
}
