//! Lambda function: serves the 'accept-privacy' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("accept-privacy").await
}
