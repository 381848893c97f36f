//! Lambda function: serves the 'tef-correction' route of the shared route table.

#[tokio::main]
async fn main() -> Result<(), shared::lambda::Error> {
    shared::lambda::serve("tef-correction").await
}
