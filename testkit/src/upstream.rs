//! A faulty upstream: a raw HTTP/1.1 server on loopback that fails every request in one
//! chosen way, and counts them. It stands in for OpenAI or Stripe in the fault suites, below
//! any HTTP library, so that it can also hang, drop the connection, or cut an answer short.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How every request fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// 500, with a JSON error body.
    ServerError,
    /// 429 with `Retry-After: 0`.
    TooManyRequests,
    /// Reads the request and never answers.
    Hang,
    /// Reads the request and closes the connection without a word.
    Drop,
    /// 200 whose body is not JSON.
    NotJson,
    /// 200 that announces 1,000 bytes, sends a few and closes.
    CutOff,
}

impl Fault {
    pub const ALL: [Fault; 6] = [
        Fault::ServerError,
        Fault::TooManyRequests,
        Fault::Hang,
        Fault::Drop,
        Fault::NotJson,
        Fault::CutOff,
    ];
}

pub struct Upstream {
    /// `http://127.0.0.1:PORT`, no trailing slash.
    pub origin: String,
    requests: Arc<AtomicUsize>,
}

impl Upstream {
    /// Requests received so far (each on its own connection: every answer closes it).
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

/// Starts a server that fails every request with `fault`.
pub async fn start(fault: Fault) -> Upstream {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the faulty upstream");
    let origin = format!("http://{}", listener.local_addr().expect("its address"));
    let requests = Arc::new(AtomicUsize::new(0));
    let counted = requests.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let counted = counted.clone();
            tokio::spawn(async move { serve(socket, fault, &counted).await });
        }
    });
    Upstream { origin, requests }
}

async fn serve(mut socket: TcpStream, fault: Fault, counted: &AtomicUsize) {
    if !read_request(&mut socket).await {
        return;
    }
    counted.fetch_add(1, Ordering::SeqCst);
    let answer = match fault {
        Fault::ServerError => response(
            "500 Internal Server Error",
            "",
            r#"{"error":{"message":"upstream fault","type":"server_error"}}"#,
        ),
        Fault::TooManyRequests => response(
            "429 Too Many Requests",
            "retry-after: 0\r\n",
            r#"{"error":{"message":"slow down","type":"rate_limit"}}"#,
        ),
        Fault::Hang => {
            tokio::time::sleep(Duration::from_secs(120)).await;
            return;
        }
        Fault::Drop => return,
        Fault::NotJson => response("200 OK", "", "not json!"),
        Fault::CutOff => "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\nconnection: close\r\n\r\n{\"id\":\"cut".to_owned(),
    };
    let _ = socket.write_all(answer.as_bytes()).await;
    let _ = socket.shutdown().await;
}

fn response(status: &str, headers: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n{headers}\r\n{body}",
        body.len()
    )
}

/// Reads one request: its head, then as many body bytes as its `content-length` says.
async fn read_request(socket: &mut TcpStream) -> bool {
    let mut buf = Vec::with_capacity(4096);
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        match socket.read(&mut chunk).await {
            Ok(0) | Err(_) => return false,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    while buf.len() < head_end + length {
        match socket.read(&mut chunk).await {
            Ok(0) | Err(_) => return false,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    true
}
