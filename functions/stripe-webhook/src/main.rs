//! Lambda function: serves the 'stripe-webhook' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("stripe-webhook").await
}
