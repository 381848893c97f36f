//! Lambda function: serves the 'get-test' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("get-test").await
}
