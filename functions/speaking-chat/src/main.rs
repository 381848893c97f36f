//! Lambda function: serves the 'speaking-chat' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("speaking-chat").await
}
