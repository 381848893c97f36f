//! Lambda function: serves the 'health' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("health").await
}
