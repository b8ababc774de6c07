//! A proxy in the path of a failing connection, as a pasted text shows it.
//!
//! Go programs (kubectl, client-go controllers, the k3s/rke2 agents, Argo CD, Karmada) take
//! their proxy from `HTTPS_PROXY`/`https_proxy` (`HTTP_PROXY` for plain http, `NO_PROXY`
//! exempts hosts; golang.org/x/net `http/httpproxy/proxy.go` `FromEnvironment`), or from a
//! kubeconfig cluster's `proxy-url` (client-go `tools/clientcmd/api/v1/types.go` `ProxyURL`).
//! A failing connection is then a failing hop to or through that proxy, and the fix is the
//! proxy setting (NO_PROXY for the API server, a proxy URL Go understands), not the API
//! server's port or firewall. The forms read here:
//!
//! - net/http's own wrapper for any error while dialing the proxy: `proxyconnect tcp: <err>`
//!   (golang/go `src/net/http/transport.go` `dialConn`: `&net.OpError{Op: "proxyconnect",
//!   Net: "tcp", Err: err}`), and the SOCKS5 dialer's `socks connect tcp <proxy>-><target>:
//!   <err>` (golang.org/x/net `internal/socks/socks.go`, vendored by net/http);
//! - curl's verbose transcript: `* Uses proxy env variable https_proxy == '<url>'` (curl
//!   `lib/url.c`), `* Establish HTTP proxy tunnel to <host:port>`, `> CONNECT <host:port>
//!   HTTP/1.1`, `* Proxy replied 200 to CONNECT request` (curl `lib/http_proxy.c`,
//!   `lib/cf-h1-proxy.c`);
//! - an environment assignment (`export HTTPS_PROXY=...`, `https_proxy=...`,
//!   `Environment="HTTPS_PROXY=..."` of a systemd unit; `HTTP_PROXY` and curl's `ALL_PROXY` only
//!   as a hint: Go uses neither for https);
//! - a kubeconfig cluster's `proxy-url: <url>`.
//!
//! Go reads only `http`, `https` and `socks5` proxy URLs: any other scheme (`socks5h://`,
//! `socks4://`) is re-read as `http://` + the whole value (`parseProxy`), so the proxy's host
//! becomes the scheme's name and the client looks up a host called `socks5h`.
//! Go never proxies requests to `localhost` or a loopback IP (`useProxy`); curl and programs
//! that dial through their own proxy support (the k3s agent's load balancer) may.

/// What the text shows of a proxy (the strongest form found first).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ProxySeen {
    /// How the text shows it, for a finding's message (`https_proxy=http://127.0.0.1:7890
    /// (curl: "Uses proxy env variable")`); credentials in the URL are removed.
    pub what: String,
    /// 1-based line of that evidence.
    pub line: usize,
    /// The line itself (for evidence).
    pub text: String,
    /// The form is a kubeconfig cluster's `proxy-url`.
    pub kubeconfig: bool,
    /// Only a mention of a proxy (a word such as `ConfigureProxy`, `behind a proxy`), not a
    /// setting or a transcript that proves one in the path.
    pub weak: bool,
}

/// Schemes Go's proxy parser does not know that people put in HTTPS_PROXY: a
/// lookup of a host with one of these names is the re-parsed URL.
const UNKNOWN_SCHEMES: &[&str] = &["socks5h", "socks4a", "socks4", "socks"];

/// A URL with any `user:password@` removed (a proxy URL often carries credentials).
pub(crate) fn without_credentials(url: &str) -> String {
    let (scheme, rest) = match url.split_once("://") {
        Some((s, r)) => (format!("{s}://"), r),
        None => (String::new(), url),
    };
    let host_end = rest.find('/').unwrap_or(rest.len());
    match rest[..host_end].rfind('@') {
        Some(at) => format!("{scheme}***@{}", &rest[at + 1..]),
        None => format!("{scheme}{rest}"),
    }
}

/// The proxy a line shows, strongest forms only (see the module doc), with its description.
pub(crate) fn seen_in_line(l: &str) -> Option<(String, bool)> {
    let t = l.trim().trim_start_matches(['*', '>', '<', ' ', '-']);
    // curl -v: `Uses proxy env variable https_proxy == 'http://127.0.0.1:7890'`
    if let Some(rest) = t.strip_prefix("Uses proxy env variable ") {
        let (var, url) = rest.split_once(" == ").unwrap_or((rest, ""));
        // curl names the no_proxy it honours the same way: an exemption, not a proxy
        if var.eq_ignore_ascii_case("no_proxy") {
            return None;
        }
        let url = url.trim().trim_matches(['\'', '"']);
        return Some((
            format!(
                "{var}={} (curl: \"Uses proxy env variable\")",
                without_credentials(url)
            ),
            false,
        ));
    }
    if let Some(target) = t.strip_prefix("Establish HTTP proxy tunnel to ") {
        return Some((
            format!("curl tunnels through an HTTP proxy to {}", target.trim()),
            false,
        ));
    }
    if t.starts_with("Proxy replied ") && t.contains("CONNECT") {
        return Some((format!("curl: \"{}\"", t.trim()), false));
    }
    // kubeadm preflight HTTPProxy / HTTPProxyCIDR warnings: `Connection to "<url>" uses proxy
    // "<proxy>". If that is not intended, adjust your proxy settings` (kubernetes/kubernetes
    // cmd/kubeadm/app/preflight/checks.go HTTPProxyCheck, HTTPProxyCIDRCheck)
    if let Some(p) = t.find(" uses proxy \"") {
        let target = super::quoted_after(t, "onnection to").unwrap_or_default();
        let proxy = super::quoted_after(&t[p..], "uses proxy").unwrap_or_default();
        if !proxy.is_empty() {
            return Some((
                format!(
                    "kubeadm preflight: connection to {target} uses proxy {}",
                    without_credentials(&proxy)
                ),
                false,
            ));
        }
    }
    // a kubeconfig cluster's proxy-url
    if let Some(url) = t.strip_prefix("proxy-url:") {
        let url = url.trim().trim_matches(['\'', '"']);
        if !url.is_empty() {
            return Some((
                format!("the kubeconfig's proxy-url {}", without_credentials(url)),
                true,
            ));
        }
    }
    // environment assignments: Go's clients take the proxy of an https request from
    // HTTPS_PROXY/https_proxy only (HTTP_PROXY is for http:// requests, ALL_PROXY is curl's,
    // never read by Go: httpproxy FromEnvironment), so only those prove a proxy in an API
    // server's path ([`weak_in_line`] keeps the others as a hint)
    for var in ["HTTPS_PROXY", "https_proxy"] {
        let mut from = 0;
        while let Some(p) = t[from..].find(var) {
            let at = from + p;
            from = at + var.len();
            let before_ok = at == 0
                || !t[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
            let after = &t[at + var.len()..];
            let value = after
                .strip_prefix('=')
                .or_else(|| after.strip_prefix(": "))
                .or_else(|| after.strip_prefix(":"));
            let Some(value) = value.filter(|_| before_ok) else {
                continue;
            };
            let value = value
                .trim_start()
                .trim_start_matches(['"', '\''])
                .split(|c: char| c.is_whitespace() || c == '"' || c == '\'')
                .next()
                .unwrap_or("");
            if value.is_empty() || value.starts_with('$') {
                continue;
            }
            return Some((format!("{var}={}", without_credentials(value)), false));
        }
    }
    None
}

/// A proxy variable that does not apply to a Go client's https requests (`HTTP_PROXY`,
/// `ALL_PROXY`), as a hint.
fn weak_in_line(l: &str) -> Option<String> {
    let t = l.trim();
    for var in ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"] {
        for (p, _) in t.match_indices(var) {
            let before_ok = !t[..p]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
            let Some(value) = t[p + var.len()..].strip_prefix('=').filter(|_| before_ok) else {
                continue;
            };
            let value = value
                .trim_start_matches(['"', '\''])
                .split(|c: char| c.is_whitespace() || c == '"' || c == '\'')
                .next()
                .unwrap_or("");
            if !value.is_empty() && !value.starts_with('$') {
                return Some(format!(
                    "{var}={} is set (Go clients use it for http:// requests only; https requests take HTTPS_PROXY{})",
                    without_credentials(value),
                    if var.eq_ignore_ascii_case("all_proxy") {
                        ", and ALL_PROXY is curl's"
                    } else {
                        ""
                    }
                ));
            }
        }
    }
    None
}

/// A mention of a proxy that proves nothing by itself (a resource named `ConfigureProxy`, "we
/// are behind a corporate proxy"): never `kube-proxy`, `kubectl proxy` or Rancher's
/// `/k8s/clusters/` proxy.
fn mentioned_in_line(l: &str) -> bool {
    let lower = l.to_ascii_lowercase();
    lower.match_indices("proxy").any(|(p, _)| {
        let before = &lower[..p];
        !(before.ends_with("kube-") || before.ends_with("kubectl ") || before.ends_with("-"))
    })
}

/// The proxy of a whole text: the first strong form, else the first mention.
pub(crate) fn scan(text: &str) -> Option<ProxySeen> {
    let mut weak = None;
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().copied().enumerate() {
        // a container's env in YAML: `- name: HTTPS_PROXY` then `value: <url>`
        if let Some(var) = l
            .trim()
            .strip_prefix("- name:")
            .map(|v| v.trim().trim_matches(['"', '\'']))
            && matches!(var, "HTTPS_PROXY" | "https_proxy")
            && let Some(value) = lines
                .get(i + 1)
                .and_then(|n| n.trim().strip_prefix("value:"))
                .map(|v| v.trim().trim_matches(['"', '\'']))
                .filter(|v| !v.is_empty())
        {
            return Some(ProxySeen {
                what: format!("{var}={} (a container's env)", without_credentials(value)),
                line: i + 2,
                text: crate::finding::redact(lines[i + 1].trim()),
                kubeconfig: false,
                weak: false,
            });
        }
        if let Some((what, kubeconfig)) = seen_in_line(l) {
            return Some(ProxySeen {
                what,
                line: i + 1,
                text: crate::finding::redact(l.trim()),
                kubeconfig,
                weak: false,
            });
        }
        if weak.is_none()
            && let Some(what) = weak_in_line(l)
        {
            weak = Some(ProxySeen {
                what,
                line: i + 1,
                text: crate::finding::redact(l.trim()),
                kubeconfig: false,
                weak: true,
            });
            continue;
        }
        if weak.is_none() && mentioned_in_line(l) {
            let word = l
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .find(|w| w.to_ascii_lowercase().contains("proxy"))
                .unwrap_or("proxy");
            weak = Some(ProxySeen {
                what: format!("the input mentions a proxy (`{word}`, line {})", i + 1),
                line: i + 1,
                text: crate::finding::redact(l.trim()),
                kubeconfig: false,
                weak: true,
            });
        }
    }
    weak
}

/// The details a connection failure on line `l` gets from the proxy: `proxy_hop` when the
/// failing dial is the proxy's own (`proxyconnect`, `socks connect`), `proxy_scheme` when a
/// looked-up host is a proxy scheme Go does not know, and the text's proxy (`proxy`,
/// `proxy_line`, `proxy_text`, `proxy_weak`, `proxy_kubeconfig`).
pub(crate) fn details(
    l: &str,
    seen: Option<&ProxySeen>,
    d: &mut std::collections::BTreeMap<String, String>,
) {
    // a 407 comes only from a proxy (net/http returns the CONNECT answer's status text:
    // golang/go src/net/http/transport.go dialConn)
    let hop = l.contains("proxyconnect tcp:")
        || l.contains("socks connect tcp")
        || l.contains("Proxy Authentication Required");
    if hop {
        d.insert("proxy_hop".to_owned(), "true".to_owned());
    }
    if let Some(host) = d.get("host").cloned()
        && UNKNOWN_SCHEMES.contains(&host.as_str())
        && hop
    {
        d.insert("proxy_scheme".to_owned(), host);
    }
    // a `proxyconnect`/`socks connect` error is itself the proof of a proxy: a mere mention
    // elsewhere (or the word in this very line) adds nothing
    let seen = seen.filter(|p| !(hop && p.weak));
    if let Some(p) = seen {
        d.insert("proxy".to_owned(), p.what.clone());
        d.insert("proxy_line".to_owned(), p.line.to_string());
        d.insert("proxy_text".to_owned(), p.text.clone());
        if p.weak {
            d.insert("proxy_weak".to_owned(), "true".to_owned());
        }
        if p.kubeconfig {
            d.insert("proxy_kubeconfig".to_owned(), "true".to_owned());
        }
    } else if hop {
        d.insert(
            "proxy".to_owned(),
            "the client's proxy (HTTPS_PROXY/https_proxy in its environment)".to_owned(),
        );
    }
}

/// Message and remedy parts for a connection failure with a proxy detail (see [`details`]):
/// `None` when the signal shows no proxy. `target` names what the client wanted to reach.
pub(crate) fn explain(s: &super::Signal, target: &str) -> Option<(String, String)> {
    let proxy = s.detail("proxy");
    if proxy.is_empty() {
        return None;
    }
    let target = if target.is_empty() {
        "the API server".to_owned()
    } else {
        target.to_owned()
    };
    let exempt = format!(
        "exempt {target} from the proxy where the client runs: add its host (and for in-cluster clients the service and pod CIDRs, `.svc`, `.cluster.local`) to NO_PROXY/no_proxy (`export NO_PROXY=$NO_PROXY,<api-server-host>`), or unset HTTPS_PROXY/https_proxy for it"
    );
    if let Some(scheme) = Some(s.detail("proxy_scheme")).filter(|v| !v.is_empty()) {
        return Some((
            format!(
                "the request goes through the proxy of HTTPS_PROXY/https_proxy, and the proxy URL uses the scheme {scheme}://, which Go does not know (only http, https and socks5: golang.org/x/net http/httpproxy parseProxy re-reads it as http://{scheme}://..., so the client looks up a host named {scheme}); the API server was never contacted"
            ),
            format!(
                "write the proxy as socks5://<host>:<port> (Go's SOCKS5 dialer already sends host names to the proxy, as {scheme} would), or {exempt}"
            ),
        ));
    }
    if s.detail("entry") == "go.socks-reply" {
        let (socks, to, reply) = (s.detail("socks"), s.detail("target"), s.detail("reply"));
        return Some((
            format!(
                "the client's requests go through a SOCKS5 proxy (HTTPS_PROXY=socks5://...), {socks}, which was reached but could not connect to {to}: it answered `{reply}` (RFC 1928 reply), so the path from the proxy to {target} is what fails"
            ),
            format!(
                "check from the proxy's host that {to} is reachable (routing, firewall, the proxy's rules), or {exempt}"
            ),
        ));
    }
    if s.detail("entry").starts_with("go.proxy-auth-required") {
        return Some((
            format!(
                "the client's proxy ({proxy}) refuses the CONNECT to {target} with 407 Proxy Authentication Required: it wants credentials the client does not send"
            ),
            format!(
                "put the proxy's credentials in the proxy URL where the client runs (`export HTTPS_PROXY=http://<user>:<password>@<proxy-host>:<port>`), or {exempt}"
            ),
        ));
    }
    // `proxyconnect tcp: tls: first record does not look like a TLS handshake`: the proxy URL
    // says https:// (TLS to the proxy) and the proxy speaks plain HTTP
    if s.detail("proxy_hop") == "true" && s.detail("entry") == "go.not-tls" {
        return Some((
            "the client's proxy URL says https:// (TLS to the proxy itself, golang/go net/http for an https proxy), but the proxy answers in plain HTTP: the TLS handshake with the proxy fails before any request to the API server".to_owned(),
            format!(
                "write the proxy URL with http:// (`export HTTPS_PROXY=http://<proxy-host>:<port>`: HTTPS_PROXY names the proxy for https requests, the proxy itself usually speaks http), or {exempt}"
            ),
        ));
    }
    if s.detail("proxy_hop") == "true" {
        return Some((
            format!(
                "the failing connection is the one to the proxy itself (Go's `proxyconnect`/`socks connect` error), not to {target}: the client sends its requests through {proxy}, and that proxy cannot be reached or refuses"
            ),
            format!(
                "fix the proxy address in the client's environment (HTTPS_PROXY/https_proxy) or start the proxy; if {target} should be reached directly, {exempt}"
            ),
        ));
    }
    if s.detail("proxy_weak") == "true" {
        return Some((
            format!(
                "{proxy}: if the client's requests go through a proxy (HTTPS_PROXY/https_proxy set where it runs), the proxy is the hop that fails"
            ),
            exempt,
        ));
    }
    Some((
        format!(
            "a proxy is in the path: {proxy}, so the client talks to the proxy, which fails to carry the session to {target} (a proxy that cannot reach it, or that intercepts TLS)"
        ),
        exempt,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_of_a_proxy() {
        assert_eq!(
            seen_in_line("* Uses proxy env variable https_proxy == 'http://u:p@127.0.0.1:7890'")
                .map(|x| x.0),
            Some(
                "https_proxy=http://***@127.0.0.1:7890 (curl: \"Uses proxy env variable\")"
                    .to_owned()
            )
        );
        assert!(seen_in_line("export HTTPS_PROXY=http://proxy.corp:3128").is_some());
        assert!(
            seen_in_line("Environment=\"HTTPS_PROXY=http://10.0.0.1:3128\"")
                .is_some_and(|x| x.0 == "HTTPS_PROXY=http://10.0.0.1:3128")
        );
        assert!(seen_in_line("    proxy-url: http://192.0.2.176:3128").is_some_and(|x| x.1));
        assert!(seen_in_line("* Establish HTTP proxy tunnel to 127.0.0.1:6444").is_some());
        assert_eq!(
            seen_in_line("\t[WARNING HTTPProxy]: Connection to \"https://192.168.78.48:6443\" uses proxy \"http://user:pwd@192.168.78.15:3128/\". If that is not intended, adjust your proxy settings").map(|x| x.0),
            Some("kubeadm preflight: connection to https://192.168.78.48:6443 uses proxy http://***@192.168.78.15:3128/".to_owned())
        );
        // not a setting, or not one a Go client uses for https
        assert!(
            seen_in_line("* Uses proxy env variable no_proxy == 'localhost,127.0.0.1'").is_none()
        );
        assert!(seen_in_line("export HTTP_PROXY=http://10.0.0.2:3128").is_none());
        assert!(scan("export ALL_PROXY=socks5://10.0.0.2:1080\n").is_some_and(|p| p.weak));
        assert!(seen_in_line("NO_PROXY=10.0.0.0/8").is_none());
        assert!(seen_in_line("HTTPS_PROXY=").is_none());
        assert!(seen_in_line("MY_HTTPS_PROXY_HOST=x").is_none());
        // kube-proxy is no proxy in the path
        assert!(scan("kube-proxy-abcde 1/1 Running\n").is_none());
        let env = scan("        env:\n        - name: HTTPS_PROXY\n          value: \"http://10.0.0.2:3128\"\n").expect("env");
        assert!(
            !env.weak && env.what == "HTTPS_PROXY=http://10.0.0.2:3128 (a container's env)",
            "{env:?}"
        );
        let weak = scan("\"LogicalResourceId\": \"ConfigureProxy\",\n").expect("mention");
        assert!(
            weak.weak && weak.what.contains("ConfigureProxy"),
            "{weak:?}"
        );
    }
}
