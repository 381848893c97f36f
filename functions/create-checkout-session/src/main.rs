//! Lambda function: serves the 'create-checkout-session' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("create-checkout-session").await
}
