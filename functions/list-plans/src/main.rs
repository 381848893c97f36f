//! Lambda function: serves the 'list-plans' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("list-plans").await
}
