//! Lambda function: serves the 'get-result' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("get-result").await
}
