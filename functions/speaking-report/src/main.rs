//! Lambda function: serves the 'speaking-report' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("speaking-report").await
}
