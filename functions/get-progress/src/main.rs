//! Lambda function: serves the 'get-progress' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("get-progress").await
}
