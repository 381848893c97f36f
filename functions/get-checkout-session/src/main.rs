//! Lambda function: serves the 'get-checkout-session' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("get-checkout-session").await
}
