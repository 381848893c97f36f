//! Lambda function: serves the 'list-tests' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("list-tests").await
}
