//! `tef-local`: the whole product on one laptop.
//!
//! - `tef-local` (or `tef-local serve`): serve API, sign-in, frontend and media;
//! - `tef-local publish`: put the content's images and rendered listening audio
//!   into the configured media store (only what is missing);
//! - `tef-local token EMAIL`: print a valid bearer token for that user;
//! - `tef-local grant EMAIL PLAN`: give a signed-up user a plan's days of
//!   access without a payment (support, and the end-to-end tests);
//! - `tef-local grant --uid SUB PLAN`: the same for a production account, named by its
//!   Cognito `sub`, in the configured store (`TEF_STORE=dynamodb` and its tables).

use std::process::ExitCode;

use local::LocalConfig;
use local::oidc::{Keys, Provider};
use local::server::{ServerState, router};
use shared::domain::{Email, UserDoc, UserId, plans};
use shared::ports::store::update_user;

#[tokio::main]
async fn main() -> ExitCode {
    shared::telemetry::init_pretty();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] | ["serve"] => serve().await,
        ["publish"] => publish().await,
        ["token", email] => token(email),
        ["grant", "--uid", uid, plan] => grant(Grantee::Uid(uid), plan).await,
        ["grant", email, plan] => grant(Grantee::Email(email), plan).await,
        _ => {
            eprintln!(
                "usage: tef-local [serve] | tef-local publish | tef-local token EMAIL | tef-local grant (EMAIL | --uid SUB) PLAN"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tef-local: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn serve() -> anyhow::Result<()> {
    let local = LocalConfig::from_env()?;
    let config = shared::Config::from_env()?;
    if !local.static_dir.join("index.html").exists() {
        tracing::warn!(dir = %local.static_dir.display(), "the frontend is not built; only the API will answer");
    }
    let addr = format!("{}:{}", local.bind, local.port);
    let listener = tokio::net::TcpListener::bind(&addr).await.map_err(|e| {
        anyhow::anyhow!("cannot listen on {addr}: {e} (set PORT to use another port)")
    })?;
    let public = local.public_url.clone();
    let state = ServerState::build(local, config).await?;
    // Start the writing corrector now, so the first correction does not wait for it.
    let corrector = state.app.corrector.clone();
    tokio::spawn(async move {
        match corrector.warm_up().await {
            Ok(()) => tracing::info!("the writing corrector is ready"),
            Err(e) => {
                tracing::error!(error = %e, "the writing corrector could not start; corrections will fail until it can")
            }
        }
    });
    // Load the speech recogniser's model too, if it is installed already (`make run` installs
    // it in the background the first time; until then transcription answers 503).
    let transcriber = state.app.transcriber.clone();
    tokio::spawn(async move {
        match transcriber.warm_up().await {
            Ok(()) => tracing::info!("offline speech recognition is ready"),
            Err(e) => {
                tracing::warn!(error = %e, "offline speech recognition is not ready yet; typed answers work")
            }
        }
    });
    tracing::info!("TEF Canada practice is running at {public}");
    axum::serve(listener, router(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

fn token(email: &str) -> anyhow::Result<()> {
    let local = LocalConfig::from_env()?;
    let config = shared::Config::from_env()?;
    let email = Email::parse(email).map_err(|e| anyhow::anyhow!("{email:?}: {e}"))?;
    let keys = Keys::load_or_create(&config.data_dir.join("auth/signing-key.pem"))?;
    let provider = Provider::new(
        keys,
        local.issuer(),
        local.client_id,
        local.token_ttl_seconds,
    );
    println!("{}", provider.id_token_for(&email)?);
    Ok(())
}

/// Whom `grant` gives access to.
enum Grantee<'a> {
    /// A local account, by the e-mail it signed in with.
    Email(&'a str),
    /// Any account, by its user id (a Cognito `sub` in production).
    Uid(&'a str),
}

async fn grant(who: Grantee<'_>, plan_id: &str) -> anyhow::Result<()> {
    let plan = plans::plan(plan_id)
        .filter(|p| p.days.is_some())
        .ok_or_else(|| anyhow::anyhow!("{plan_id:?} is not a paid plan (monthly or quarterly)"))?;
    let config = shared::Config::from_env()?;
    let (uid, label) = match who {
        Grantee::Email(email) => {
            if matches!(config.store, shared::config::StoreConfig::DynamoDb { .. }) {
                anyhow::bail!(
                    "with TEF_STORE=dynamodb, name the account by its user id: tef-local grant --uid SUB {plan_id} (the Cognito user's sub)"
                );
            }
            let email = Email::parse(email).map_err(|e| anyhow::anyhow!("{email:?}: {e}"))?;
            (
                UserId::parse(&Provider::subject_for(&email))?,
                email.to_string(),
            )
        }
        Grantee::Uid(uid) => (UserId::parse(uid)?, format!("user {uid}")),
    };
    let app = shared::App::from_config(config).await?;
    let email = label;
    let now = app.now();
    let saved = update_user(app.users.as_ref(), &uid, |doc| {
        let doc = doc.ok_or("has no account yet: sign in and accept the terms first")?;
        Ok::<_, &str>(UserDoc {
            subscription_type: Some(plan.id.to_owned()),
            subscription_end_date: plans::access_end(plan, doc.subscription_end_date, now),
            ..doc
        })
    })
    .await
    .map_err(|e| anyhow::anyhow!("{email}: {e}"))?;
    if let Some(end) = saved.value.subscription_end_date {
        let until =
            end.to_offset(time::UtcOffset::UTC)
                .format(time::macros::format_description!(
                    "[year]-[month]-[day] [hour]:[minute] UTC"
                ))?;
        println!("{email}: {} until {until}", plan.name);
    }
    Ok(())
}

async fn publish() -> anyhow::Result<()> {
    let local = LocalConfig::from_env()?;
    let app = shared::App::from_config(shared::Config::from_env()?).await?;
    let images =
        shared::publish::publish_images(&local.content_dir.join("media"), app.media.as_ref())
            .await?;
    println!(
        "Images: {} published, {} already up to date",
        images.written, images.unchanged
    );
    let engine = app.speech.engine_id().to_owned();
    let audio = shared::publish::render_audio(
        &app.catalogue,
        app.speech.as_ref(),
        app.media.as_ref(),
        &mut |p| {
            if p.rendered {
                println!(
                    "Rendering listening audio ({engine}) {}/{}: {}",
                    p.done, p.total, p.key
                );
            }
        },
    )
    .await?;
    println!(
        "Listening audio: {} rendered, {} already rendered",
        audio.written, audio.unchanged
    );
    Ok(())
}
