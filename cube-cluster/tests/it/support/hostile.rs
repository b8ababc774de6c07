//! A hostile API server on 127.0.0.1: each [`Behaviour`] is one way a server (or something
//! pretending to be one) can hurt a client. TLS with a [`CertPair`] of the test PKI, or plain
//! HTTP. Requests to paths the behaviour does not target answer like a v1.36 API server
//! (`/version` from `testdata/fixtures/apiserver/version.json`, a SelfSubjectReview for user
//! `admin`), so a client gets as far as the bad part.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use super::{CertPair, testdata};

/// What the server does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behaviour {
    /// Every answer is `200` with a chunked body that never ends.
    EndlessBody,
    /// Every answer is `200` with `Content-Length: n` and `n` bytes.
    HugeBody(u64),
    /// Every answer is `200` with a chunked body of `n` bytes (no length declared).
    HugeBodyUndeclared(u64),
    /// Lists answer one empty page whose `metadata.continue` is always the same token.
    RepeatContinue,
    /// Lists answer a page whose `continue` token is new every time (a list without end).
    EndlessPages,
    /// The Node list answers every page with this many fresh Nodes (new names and uids, 40
    /// labels each) and a fresh `continue` token: a flood that grows the snapshot without end
    /// (red team 2 #11); the other lists answer empty.
    Flood(usize),
    /// Lists answer headers at once, then the body one byte per interval.
    SlowBody(Duration),
    /// Every request but `/version` and SelfSubjectReview answers this code with a `Status`.
    Status(u16),
    /// Lists answer 403 and SelfSubjectReview names a user, both with terminal escape codes,
    /// CR/LF and a right-to-left override in the text.
    EscapeMessages,
    /// `/version` answers 200 with a JSON document that is not the Kubernetes `/version`.
    NotKubernetes,
    /// Reads the request, then resets the connection (RST).
    Reset,
    /// Writes an SSH banner instead of anything HTTP (or TLS), then closes.
    NotHttp,
    /// Lists answer 200 with a body that is no list: `0` a gzip body (`Content-Encoding: gzip`
    /// never asked for), `1` a proxy's HTML login page, `2` a `Status` object.
    NotAList(u8),
    /// The Pod list answers one page of this many Pending pods whatever `limit` asked (a huge
    /// or hostile server); the other lists answer empty.
    HugeList(usize),
    /// Reads every request and never answers (a port that accepts and stays silent, as a
    /// black-holed cluster looks once a proxy or load balancer accepted the connection); with
    /// `true` the Node list still answers (empty) first, so the server has answered before it
    /// goes silent.
    Silent(bool),
}

/// A running hostile server; dropped = stopped.
pub struct Hostile {
    /// Listening address.
    pub addr: std::net::SocketAddr,
    tls: bool,
    requests: Arc<AtomicUsize>,
    task: JoinHandle<()>,
}

impl Drop for Hostile {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Hostile {
    /// `https://127.0.0.1:<port>` (or `http://` without TLS).
    pub fn url(&self) -> String {
        format!(
            "{}://{}",
            if self.tls { "https" } else { "http" },
            self.addr
        )
    }

    /// Requests (or connections, for [`Behaviour::Reset`] and [`Behaviour::NotHttp`]) seen.
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

/// The escape-laden text of [`Behaviour::EscapeMessages`].
pub const ESCAPES: &str = "\u{1b}[2J\u{1b}[31mpwned\u{1b}[0m\r\nfake line \u{202e}gnp.exe\u{7}";

/// Starts a hostile server; TLS with `cert` when given.
pub async fn start(behaviour: Behaviour, cert: Option<&CertPair>) -> Hostile {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let acceptor = cert.map(super::tls_acceptor);
    let tls = acceptor.is_some();
    let requests = Arc::new(AtomicUsize::new(0));
    let counter = requests.clone();
    let task = tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let acceptor = acceptor.clone();
            let counter = counter.clone();
            tokio::spawn(async move {
                match behaviour {
                    Behaviour::NotHttp => {
                        counter.fetch_add(1, Ordering::SeqCst);
                        let mut s = stream;
                        let _ = s
                            .write_all(b"SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n")
                            .await;
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        return;
                    }
                    Behaviour::Reset if acceptor.is_none() => {
                        counter.fetch_add(1, Ordering::SeqCst);
                        let mut r = BufReader::new(stream);
                        let _ = read_head(&mut r).await;
                        let s = r.into_inner();
                        let _ = s.set_zero_linger();
                        drop(s);
                        return;
                    }
                    Behaviour::Reset => {
                        // Over TLS: reset during the handshake.
                        counter.fetch_add(1, Ordering::SeqCst);
                        let mut first = [0u8; 16];
                        let _ = stream.peek(&mut first).await;
                        let _ = stream.set_zero_linger();
                        drop(stream);
                        return;
                    }
                    _ => {}
                }
                match acceptor {
                    Some(a) => {
                        if let Ok(tls) = a.accept(stream).await {
                            let _ = serve(tls, behaviour, counter).await;
                        }
                    }
                    None => {
                        let _ = serve(stream, behaviour, counter).await;
                    }
                }
            });
        }
    });
    Hostile {
        addr,
        tls,
        requests,
        task,
    }
}

/// Reads a request head; returns the request target (`None` at end of stream).
async fn read_head<R: AsyncRead + Unpin>(r: &mut BufReader<R>) -> Option<(String, String)> {
    let mut line = String::new();
    if r.read_line(&mut line).await.ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let target = parts.next().unwrap_or_default().to_string();
    let mut len = 0usize;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).await.ok()? == 0 {
            return None;
        }
        let t = h.trim_end();
        if t.is_empty() {
            break;
        }
        if let Some((k, v)) = t.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            len = v.trim().parse().unwrap_or(0);
        }
    }
    if len > 0 {
        let mut body = vec![0u8; len];
        tokio::io::AsyncReadExt::read_exact(r, &mut body)
            .await
            .ok()?;
    }
    Some((method, target))
}

async fn write_json<W: AsyncWrite + Unpin>(
    w: &mut W,
    code: u16,
    body: &serde_json::Value,
) -> std::io::Result<()> {
    let text = body.to_string();
    let head = format!(
        "HTTP/1.1 {code} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        text.len()
    );
    w.write_all(head.as_bytes()).await?;
    w.write_all(text.as_bytes()).await?;
    w.flush().await
}

fn is_list(path: &str) -> bool {
    path.starts_with("/api/") || path.starts_with("/apis/")
}

async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    stream: S,
    behaviour: Behaviour,
    counter: Arc<AtomicUsize>,
) -> std::io::Result<()> {
    let mut r = BufReader::new(stream);
    let mut page = 0u64;
    while let Some((method, target)) = read_head(&mut r).await {
        counter.fetch_add(1, Ordering::SeqCst);
        let path = target.split('?').next().unwrap_or_default().to_string();
        let w = r.get_mut();
        let version: serde_json::Value =
            serde_json::from_str(&testdata("fixtures/apiserver/version.json")).expect("version");
        let ssr = |name: &str| {
            json!({"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
                   "status": {"userInfo": {"username": name, "groups": ["system:masters", "system:authenticated"]}}})
        };
        let is_ssr = method == "POST" && path.ends_with("/selfsubjectreviews");
        match behaviour {
            Behaviour::Silent(nodes_answer) if !(nodes_answer && path == "/api/v1/nodes") => {
                tokio::time::sleep(Duration::from_secs(3600)).await;
            }
            Behaviour::Silent(_) => {
                write_json(
                    w,
                    200,
                    &json!({"kind": "NodeList", "apiVersion": "v1", "metadata": {}, "items": []}),
                )
                .await?;
            }
            Behaviour::EndlessBody => {
                w.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .await?;
                let chunk = format!("{:x}\r\n{}\r\n", 8192, "a".repeat(8192));
                loop {
                    w.write_all(chunk.as_bytes()).await?;
                }
            }
            Behaviour::HugeBody(n) => {
                w.write_all(
                    format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {n}\r\n\r\n")
                        .as_bytes(),
                )
                .await?;
                write_bytes(w, n, false).await?;
            }
            Behaviour::HugeBodyUndeclared(n) => {
                w.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .await?;
                write_bytes(w, n, true).await?;
                w.write_all(b"0\r\n\r\n").await?;
            }
            Behaviour::RepeatContinue | Behaviour::EndlessPages if is_list(&path) => {
                page += 1;
                let token = if behaviour == Behaviour::RepeatContinue {
                    "c2FtZS10b2tlbg==".to_string()
                } else {
                    format!("page-{page}")
                };
                write_json(
                    w,
                    200,
                    &json!({"kind": "List", "apiVersion": "v1",
                            "metadata": {"resourceVersion": "1", "continue": token}, "items": []}),
                )
                .await?;
            }
            Behaviour::Flood(n) if is_list(&path) => {
                let body = if path.starts_with("/api/v1/nodes") {
                    page += 1;
                    let labels: serde_json::Map<String, serde_json::Value> = (0..40)
                        .map(|l| {
                            (
                                format!("flood.example.com/label-{l}"),
                                json!("x".repeat(32)),
                            )
                        })
                        .collect();
                    let items: Vec<serde_json::Value> = (0..n)
                        .map(|i| {
                            json!({"apiVersion": "v1", "kind": "Node",
                                   "metadata": {"name": format!("flood-{page}-{i}"),
                                                "uid": format!("uid-{page}-{i}"),
                                                "labels": labels.clone()}})
                        })
                        .collect();
                    json!({"kind": "NodeList", "apiVersion": "v1",
                           "metadata": {"resourceVersion": "1", "continue": format!("page-{page}")},
                           "items": items})
                } else {
                    json!({"kind": "List", "apiVersion": "v1", "metadata": {}, "items": []})
                };
                write_json(w, 200, &body).await?;
            }
            Behaviour::SlowBody(every) if is_list(&path) => {
                let body = json!({"kind": "List", "apiVersion": "v1", "metadata": {}, "items": []})
                    .to_string();
                w.write_all(
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                        body.len()
                    )
                    .as_bytes(),
                )
                .await?;
                w.flush().await?;
                for b in body.bytes() {
                    tokio::time::sleep(every).await;
                    w.write_all(&[b]).await?;
                    w.flush().await?;
                }
            }
            Behaviour::Status(code) if path != "/version" && !is_ssr => {
                let reason = match code {
                    403 => "Forbidden",
                    500 => "InternalError",
                    _ => "Failure",
                };
                let message = if code == 403 {
                    format!(
                        "{path} is forbidden: User \"viewer\" cannot list resource at the cluster scope"
                    )
                } else {
                    "Internal error occurred: etcdserver: request timed out".to_string()
                };
                write_json(
                    w,
                    code,
                    &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                            "message": message, "reason": reason, "code": code}),
                )
                .await?;
            }
            Behaviour::EscapeMessages if is_ssr => {
                write_json(w, 201, &ssr(&format!("admin{ESCAPES}"))).await?;
            }
            Behaviour::EscapeMessages if is_list(&path) => {
                write_json(
                    w,
                    403,
                    &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                            "message": format!("nodes is forbidden: {ESCAPES}"), "reason": "Forbidden", "code": 403}),
                )
                .await?;
            }
            Behaviour::HugeList(n) if is_list(&path) => {
                let body = if path.ends_with("/pods") {
                    let mut b = String::from(
                        r#"{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":["#,
                    );
                    for i in 0..n {
                        if i > 0 {
                            b.push(',');
                        }
                        b.push_str(&format!(
                            r#"{{"metadata":{{"name":"p{i}","namespace":"default","uid":"u{i}"}},"spec":{{"containers":[{{"name":"c","image":"x"}}]}},"status":{{"phase":"Pending"}}}}"#
                        ));
                    }
                    b.push_str("]}");
                    b
                } else {
                    json!({"kind": "List", "apiVersion": "v1", "metadata": {}, "items": []})
                        .to_string()
                };
                w.write_all(
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                        body.len()
                    )
                    .as_bytes(),
                )
                .await?;
                w.write_all(body.as_bytes()).await?;
            }
            Behaviour::NotAList(shape) if is_list(&path) => {
                let (encoding, body): (&str, Vec<u8>) = match shape {
                    // a gzip member header and deflate bytes: what a compressing proxy sends
                    0 => (
                        "Content-Encoding: gzip\r\n",
                        [&[0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03][..], &[0xed, 0xc1, 0x01, 0x0d, 0][..], &[0u8; 64][..]].concat(),
                    ),
                    1 => ("", b"<!DOCTYPE html><html><body><form action=/login>Sign in</form></body></html>".to_vec()),
                    _ => ("", br#"{"kind":"Status","apiVersion":"v1","status":"Success","code":200}"#.to_vec()),
                };
                w.write_all(
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{encoding}Content-Length: {}\r\n\r\n",
                        body.len()
                    )
                    .as_bytes(),
                )
                .await?;
                w.write_all(&body).await?;
            }
            Behaviour::NotKubernetes if path == "/version" => {
                write_json(
                    w,
                    200,
                    &json!({"status": "UP", "secret": "do-not-echo-this-body", "build": "x".repeat(5000)}),
                )
                .await?;
            }
            _ if path == "/version" => write_json(w, 200, &version).await?,
            _ if is_ssr => write_json(w, 201, &ssr("admin")).await?,
            _ if method == "POST" && path.ends_with("accessreviews") => {
                write_json(
                    w,
                    201,
                    &json!({"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
                            "status": {"allowed": true}}),
                )
                .await?;
            }
            _ => {
                write_json(
                    w,
                    200,
                    &json!({"kind": "List", "apiVersion": "v1", "metadata": {}, "items": []}),
                )
                .await?;
            }
        }
    }
    Ok(())
}

async fn write_bytes<W: AsyncWrite + Unpin>(
    w: &mut W,
    n: u64,
    chunked: bool,
) -> std::io::Result<()> {
    const CHUNK: usize = 64 * 1024;
    let block = vec![b' '; CHUNK];
    let mut left = n;
    while left > 0 {
        let k = left.min(CHUNK as u64) as usize;
        if chunked {
            w.write_all(format!("{k:x}\r\n").as_bytes()).await?;
            w.write_all(&block[..k]).await?;
            w.write_all(b"\r\n").await?;
        } else {
            w.write_all(&block[..k]).await?;
        }
        left -= k as u64;
    }
    w.flush().await
}
