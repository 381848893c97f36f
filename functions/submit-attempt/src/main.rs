//! Lambda function: serves the 'submit-attempt' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("submit-attempt").await
}
