//! `image-pull-failed` and `pod-probe-failed`: the connection errors of clients that are not
//! the API server's, attributed to the client that printed them.
//!
//! Image pulls run in the node's container runtime (containerd, CRI-O, Docker) on behalf of the
//! kubelet: their DNS look-ups use the node's resolver, their TLS trust the runtime's registry
//! configuration, their credentials the pod's imagePullSecrets. The texts are the kubelet's
//! image manager (kubernetes pkg/kubelet/images/image_manager.go: `Failed to pull image %q:
//! %v`, `Back-off pulling image %q`, `Container image %q is not present with pull policy of
//! Never`, `Failed to apply default image tag %q: %v`; waiting reasons in
//! pkg/kubelet/images/types.go) wrapping the runtime's error: containerd remotes/docker
//! (`pull access denied, repository does not exist or may require authorization: %w`,
//! `unexpected status from HEAD request to %s: %s`, `%s: not found`), containerd
//! images/image.go (`no match for platform in manifest`), Docker (moby distribution/errors.go
//! `pull access denied for %s, repository does not exist or may require 'docker login'`,
//! `manifest for %s not found`), containers/image for CRI-O (`reading manifest %s in %s`,
//! `choosing image instance: no image found in manifest list for architecture %s`), and the
//! registry's own error codes (distribution/distribution registry/api/errcode:
//! `toomanyrequests`, `unauthorized`, `denied`, `manifest unknown`, `name unknown`).
//!
//! Probes are the kubelet dialling the pod's own IP and port (pkg/kubelet/prober/prober.go,
//! `%s probe failed: %s`): a refused connection there is the container not listening yet or
//! at all, never the API server.

use std::collections::BTreeMap;

use crate::catalog;
use crate::classify::{Signal, SignalKind};
use crate::rules::{obj, pod_subject, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    ImagePullFailed,
    "image-pull-failed",
    Scheduling,
    Error,
    "A container cannot start because its image cannot be pulled: the kubelet's `Failed to pull image`, `Back-off pulling image`, `Error: ErrImagePull` / `ImagePullBackOff`, ErrImageNeverPull and InvalidImageName (events, `describe pod`, the STATUS column of `kubectl get pods`, container waiting reasons in pod JSON/YAML), the kubelet's and containerd's own log lines, Docker's and CRI-O's wordings. The cause is read from the runtime's error: the registry's pull rate limit (`toomanyrequests`, 429), credentials (`pull access denied`, `insufficient_scope`, 401/403), a tag or repository that does not exist (`manifest unknown`, `not found`), no image for the node's platform (`no match for platform in manifest`), the registry's certificate untrusted by the node (`x509`), a plain-HTTP registry, DNS, timeouts or refused connections on the node's path to the registry, a full disk, and the remedy is the one of that cause. Registry traffic is the node's, never the API server's: these lines are never cluster-unreachable or cluster-tls-untrusted. A pod whose image was pulled later in the same text stays quiet.",
    check_pull
);

declare_rule!(
    PodProbeFailed,
    "pod-probe-failed",
    Scheduling,
    Info,
    "A kubelet probe of a container fails (event reason Unhealthy `Liveness|Readiness|Startup probe failed: ...`, `probe errored`, the kubelet's `\"Probe failed\"` log line): the kubelet dials the pod's own IP and port, so `connection refused` or a timeout there means the container does not listen on that port yet (slow start) or at all (wrong port or path, the app bound to 127.0.0.1), never that the API server is down. Info: the workload's own health check; a failing Liveness probe restarts the container (see pod-crashlooping).",
    check_probe
);

/// Why a pull fails, read from the runtime's error text.
struct PullCause {
    /// What failed, for the message.
    what: &'static str,
    /// The one remedy of that cause.
    remedy: &'static str,
}

/// The cause of a failed pull from the texts of one pod (the most specific one found).
fn pull_cause(text: &str) -> PullCause {
    let t = text.to_ascii_lowercase();
    let has = |ms: &[&str]| ms.iter().any(|m| t.contains(m));
    if has(&[
        "toomanyrequests",
        "429 too many requests",
        "pull rate limit",
    ]) {
        return PullCause {
            what: "the registry's pull rate limit is reached (Docker Hub limits anonymous pulls per source IP; a NAT gateway shares one IP for every node)",
            remedy: "authenticate the pulls (an imagePullSecret of a Docker Hub account on the pod or its ServiceAccount: after `docker login` with that account, `kubectl create secret generic dockerhub -n <namespace> --from-file=.dockerconfigjson=$HOME/.docker/config.json --type=kubernetes.io/dockerconfigjson`), or pull through a mirror or pull-through cache (containerd: /etc/containerd/certs.d/docker.io/hosts.toml; CRI-O: registries.conf mirror) or copy the image to your own registry; imagePullPolicy: IfNotPresent avoids pulling an image the node already has",
        };
    }
    if has(&[
        "no match for platform in manifest",
        "no matching manifest for",
        "no image found in manifest list for architecture",
        "exec format error",
    ]) {
        return PullCause {
            what: "the image has no variant for the node's OS/architecture (an amd64-only image on an arm64 node, or the reverse)",
            remedy: "build and push a multi-architecture image (`docker buildx build --platform linux/amd64,linux/arm64 --push`), or keep the pod on nodes of the image's architecture (`nodeSelector: kubernetes.io/arch: amd64`)",
        };
    }
    if has(&[
        "pull access denied",
        "insufficient_scope",
        "401 unauthorized",
        "403 forbidden",
        "unauthorized: authentication required",
        "no basic auth credentials",
        "requested access to the resource is denied",
        "authorization failed",
        "invalid username/password",
        "unauthorized:",
        "denied:",
    ]) {
        return PullCause {
            what: "the registry refuses the pull: the repository needs credentials the pod does not give, or it does not exist under that name (registries answer `denied` for both)",
            remedy: "check the image name first (`docker manifest inspect <image>` with your own login), then give the pod the registry's credentials: after `docker login <registry>`, `kubectl create secret generic <name> -n <namespace> --from-file=.dockerconfigjson=$HOME/.docker/config.json --type=kubernetes.io/dockerconfigjson` and `imagePullSecrets: [{name: <name>}]` in the pod spec (or on its ServiceAccount); an ECR token expires after 12 hours, a GCR/Artifact Registry pull needs the node's service account to have reader access",
        };
    }
    if has(&[
        "manifest unknown",
        "name unknown",
        ": not found",
        "404 not found",
        "not found: manifest",
        "manifest for ",
        "repository does not exist",
    ]) {
        return PullCause {
            what: "the image's tag or repository does not exist in the registry",
            remedy: "fix the image reference in the pod spec (name, tag, registry host): list the tags the registry has (`crane ls <repository>`, `skopeo list-tags docker://<repository>`, or the registry's UI) and push the image if it was never pushed",
        };
    }
    if has(&["server gave http response to https client"]) {
        return PullCause {
            what: "the registry answers plain HTTP while the runtime speaks HTTPS",
            remedy: "serve the registry over TLS, or declare it as plain HTTP in the runtime's registry configuration on every node (containerd: /etc/containerd/certs.d/<registry>/hosts.toml with `server = \"http://<registry>\"` and config_path set in config.toml; Docker: \"insecure-registries\" in /etc/docker/daemon.json; CRI-O: `insecure = true` for the registry in /etc/containers/registries.conf), then restart the runtime",
        };
    }
    if has(&[
        "x509:",
        "tls: failed to verify",
        "certificate signed by unknown authority",
    ]) {
        return PullCause {
            what: "the node's container runtime does not trust the registry's certificate (a private CA or a TLS-inspecting proxy)",
            remedy: "install the registry's CA where the runtime reads it on every node (containerd: /etc/containerd/certs.d/<registry>/ca.crt referenced from hosts.toml; Docker: /etc/docker/certs.d/<registry>/ca.crt; CRI-O: /etc/containers/certs.d/<registry>/ca.crt) or in the node's system trust store (`update-ca-certificates`), then restart the runtime; the kubeconfig's CA is not involved",
        };
    }
    if has(&[
        "no such host",
        "server misbehaving",
        "temporary failure in name resolution",
    ]) {
        return PullCause {
            what: "the registry's host name does not resolve on the node (the node's own resolver, not CoreDNS)",
            remedy: "fix name resolution on the node (`resolvectl status`, /etc/resolv.conf; `nslookup <registry>` on the node) or the registry host in the image name; pods' hostAliases and CoreDNS do not apply to image pulls",
        };
    }
    if has(&[
        "i/o timeout",
        "connection refused",
        "no route to host",
        "client.timeout exceeded",
        "tls handshake timeout",
        "connection reset by peer",
        "network is unreachable",
        "context deadline exceeded",
    ]) {
        return PullCause {
            what: "the node cannot reach the registry (firewall, proxy or egress path from the node)",
            remedy: "from the node try `curl -v https://<registry>/v2/`; behind a proxy give the container runtime its proxy (HTTP_PROXY, HTTPS_PROXY and NO_PROXY in a systemd drop-in for containerd or docker, then `systemctl daemon-reload && systemctl restart containerd`); open egress to the registry, or use a mirror the nodes reach",
        };
    }
    if has(&["no space left on device"]) {
        return PullCause {
            what: "the node's disk for images is full",
            remedy: "free space on the node's image filesystem (`sudo crictl rmi --prune`, `df -h /var/lib/containerd`), check the kubelet's image garbage collection thresholds, or give the node a larger disk",
        };
    }
    if has(&["not present with pull policy of never", "errimageneverpull"]) {
        return PullCause {
            what: "the image is not on the node and imagePullPolicy is Never",
            remedy: "load the image on every node that may run the pod (`sudo ctr -n k8s.io images import <image.tar>`; kind: `kind load docker-image <image>`; minikube: `minikube image load <image>`), or set imagePullPolicy: IfNotPresent",
        };
    }
    if has(&[
        "invalid reference format",
        "failed to apply default image tag",
        "invalidimagename",
        "couldn't parse image",
    ]) {
        return PullCause {
            what: "the image reference does not parse (upper-case letters, a stray space or scheme, an empty tag)",
            remedy: "fix the image reference in the pod spec: `[registry/]repository[:tag][@digest]`, repository in lower case, no `https://`",
        };
    }
    PullCause {
        what: "the error the runtime gave is not in the input",
        remedy: "`kubectl describe pod <pod>` shows the `Failed to pull image` event with the registry's answer, and `sudo crictl pull <image>` on the node repeats the pull; the usual causes are a wrong name or tag, missing imagePullSecrets, the registry's rate limit, or the node's DNS, proxy or CA for the registry",
    }
}

/// What one pod shows of failing pulls.
#[derive(Default)]
struct PullGroup {
    evidence: Vec<Evidence>,
    text: String,
    image: String,
}

/// Waiting reasons of a container whose image cannot be pulled (pkg/kubelet/images/types.go).
const PULL_REASONS: &[&str] = &[
    "ErrImagePull",
    "ImagePullBackOff",
    "ErrImageNeverPull",
    "InvalidImageName",
    "RegistryUnavailable",
    "ErrImageInspect",
];

/// True when `text` says the kubelet has the image now (`Successfully pulled image %q in %v`,
/// `Container image %q already present on machine`: pkg/kubelet/images/image_manager.go) for
/// `image`, or for any image when the failure named none (`Error: ErrImagePull`, `Back-off
/// pulling image` without the name, `Error: ImagePullBackOff`).
fn says_pulled(text: &str, image: &str) -> bool {
    (text.contains("Successfully pulled image") || text.contains("already present on machine"))
        && (image.is_empty() || text.contains(image))
}

/// Whether a later line or event of the same input shows the image pulled after the failure
/// `s` (the pod recovered): a later success supersedes an earlier failure of the same object.
/// Log texts are read after the signal's line; events (source `events`, line = event index +
/// 1) after the signal's event, about the same object.
fn pulled_later(ctx: &Context<'_>, s: &Signal, image: &str) -> bool {
    crate::rules::superseded_where(ctx, s, |text| says_pulled(text, image))
}

/// True when the input shows the pod of `subject` running now: phase Running or Succeeded and
/// no container waiting for its image (a `describe pod` whose Events hold an old pull failure
/// but whose containers run: the failure is history).
fn running_now(ctx: &Context<'_>, subject: &Subject) -> bool {
    ctx.snapshot().pods.iter().any(|p| {
        pod_subject(p) == *subject
            && matches!(p.status.phase.as_str(), "Running" | "Succeeded")
            && !PULL_REASONS.contains(&p.status.reason.as_str())
            && !p
                .status
                .init_container_statuses
                .iter()
                .chain(&p.status.container_statuses)
                .any(|c| {
                    c.state
                        .as_ref()
                        .and_then(|st| st.waiting.as_ref())
                        .is_some_and(|w| PULL_REASONS.contains(&w.reason.as_str()))
                })
    })
}

fn check_pull(ctx: &Context<'_>) -> Vec<Finding> {
    let mut groups: BTreeMap<Subject, PullGroup> = BTreeMap::new();
    let mut recovered: Vec<Subject> = Vec::new();
    // pods whose own status shows them waiting for an image now
    let mut current: Vec<Subject> = Vec::new();
    for s in signals(ctx, &[SignalKind::Known]) {
        let Some(e) = catalog::entry(s.detail("entry")) else {
            continue;
        };
        if e.rule != ImagePullFailed::ID {
            continue;
        }
        // the pod sandbox (pause) image: no pod starts on the node, node-runtime-unhealthy's
        if s.text.contains("sandbox image") || s.text.contains("FailedCreatePodSandBox") {
            continue;
        }
        let image = s
            .detail("image")
            .trim_matches(|c| c == '"' || c == '\\' || c == '\'')
            .to_owned();
        let subject = signal_subject(s);
        if pulled_later(ctx, s, &image) || running_now(ctx, &subject) {
            recovered.push(subject);
            continue;
        }
        let g = groups.entry(subject).or_default();
        if g.evidence.len() < 3 {
            g.evidence.push(s.evidence());
        }
        g.text.push_str(&s.text);
        g.text.push('\n');
        if g.image.is_empty() {
            g.image = image;
        }
    }
    // container waiting reasons and the STATUS column of `kubectl get pods`
    for p in &ctx.snapshot().pods {
        let o = obj("Pod", &p.metadata.namespace, &p.metadata.name);
        let subject = pod_subject(p);
        for c in p
            .status
            .init_container_statuses
            .iter()
            .chain(&p.status.container_statuses)
        {
            let Some(w) = c.state.as_ref().and_then(|s| s.waiting.as_ref()) else {
                continue;
            };
            if !PULL_REASONS.contains(&w.reason.as_str()) {
                continue;
            }
            // the pod waits for its image now: no earlier success makes this history
            current.push(subject.clone());
            let g = groups.entry(subject.clone()).or_default();
            g.evidence.push(Evidence::field(
                &o,
                format!("status.containerStatuses[{}].state.waiting.reason", c.name),
                &w.reason,
            ));
            g.text.push_str(&w.reason);
            g.text.push(' ');
            g.text.push_str(&w.message);
            g.text.push('\n');
        }
        let table = p
            .status
            .reason
            .strip_prefix("Init:")
            .unwrap_or(&p.status.reason);
        if PULL_REASONS.contains(&table) {
            current.push(subject.clone());
        }
        if PULL_REASONS.contains(&table) && !groups.contains_key(&subject) {
            let g = groups.entry(subject).or_default();
            g.evidence
                .push(Evidence::field(&o, "STATUS", p.status.reason.clone()));
            g.text.push_str(table);
            g.text.push('\n');
        }
    }
    groups
        .into_iter()
        .filter(|(subject, g)| {
            !(g.evidence.is_empty()
                || recovered.contains(subject) && !current.contains(subject))
        })
        .map(|(subject, g)| {
            let cause = pull_cause(&g.text);
            let image = if g.image.is_empty() {
                String::from("its image")
            } else {
                format!("the image {}", g.image)
            };
            let node = node_of(ctx, &subject)
                .map(|n| format!(" on node {n}"))
                .unwrap_or_default();
            Finding::new(
                ImagePullFailed::ID,
                Severity::Error,
                subject.clone(),
                format!(
                    "{} cannot start: the container runtime{node} cannot pull {image}: {}; image pulls run from the node, so this is not the API server or the kubeconfig",
                    pod_words(&subject, &g.text),
                    cause.what
                ),
            )
            .with_evidences(g.evidence)
            .with_remedy(cause.remedy)
        })
        .collect()
}

/// How a message names the pod of `subject`: `pod <ns>/<name>` for a Pod, else the pod an
/// e2e event dump names (`event for <pod>:`) in `text`, else "a pod".
fn pod_words(subject: &Subject, text: &str) -> String {
    if subject.kind == "Pod" {
        return if subject.namespace.is_empty() {
            format!("pod {}", subject.name)
        } else {
            format!("pod {}/{}", subject.namespace, subject.name)
        };
    }
    text.find("event for ")
        .map(|p| &text[p + "event for ".len()..])
        .and_then(|r| r.split(':').next())
        .filter(|n| !n.is_empty() && !n.contains(' '))
        .map_or_else(|| "a pod".to_owned(), |n| format!("pod {n}"))
}

/// The node a pod subject is bound to, when the snapshot has the pod.
fn node_of(ctx: &Context<'_>, subject: &Subject) -> Option<String> {
    ctx.snapshot()
        .pods
        .iter()
        .find(|p| pod_subject(p) == *subject)
        .map(|p| p.spec.node_name.clone())
        .filter(|n| !n.is_empty())
}

/// The `ip:port` a probe's Go dial error names (`dial tcp 10.244.2.15:8080: connect: ...`).
fn dialled(text: &str) -> Option<&str> {
    let rest = &text[text.find("dial tcp ")? + "dial tcp ".len()..];
    let addr = rest.split([':', ' ']).next()?;
    let port = rest[addr.len()..]
        .strip_prefix(':')?
        .split(|c: char| !c.is_ascii_digit())
        .next()?;
    (!addr.is_empty() && !port.is_empty()).then(|| &rest[..addr.len() + 1 + port.len()])
}

fn check_probe(ctx: &Context<'_>) -> Vec<Finding> {
    let mut groups: BTreeMap<Subject, Vec<&Signal>> = BTreeMap::new();
    for s in signals(ctx, &[SignalKind::Known]) {
        if catalog::entry(s.detail("entry")).is_some_and(|e| e.rule == PodProbeFailed::ID) {
            groups.entry(signal_subject(s)).or_default().push(s);
        }
    }
    groups
        .into_iter()
        .map(|(subject, lines)| {
            let s = lines[0];
            let probe = s.detail("probe").trim_matches(['"', '\\']);
            let probe = if probe.is_empty() { "a" } else { probe };
            let at = dialled(&s.text)
                .map(|a| format!(" at {a} (the pod's own address)"))
                .unwrap_or_default();
            let restarts = if probe.eq_ignore_ascii_case("liveness") {
                "; a failing Liveness probe makes the kubelet restart the container"
            } else {
                ""
            };
            Finding::new(
                PodProbeFailed::ID,
                Severity::Info,
                subject.clone(),
                format!(
                    "{}: the kubelet's {probe} probe of the container fails{at}: the container does not answer on the probed port or path (still starting, or listening elsewhere){restarts}; this is the workload's own health check, not the API server",
                    pod_words(&subject, &s.text)
                ),
            )
            .with_evidences(lines.iter().take(3).map(|s| s.evidence()))
            .with_remedy(
                "`kubectl describe pod <pod>` shows the probe (port, path, delays) and `kubectl logs <pod>` whether the app started: make the probe's port and path match what the container listens on (its containerPort, the app bound to 0.0.0.0 rather than 127.0.0.1), and give a slow start a startupProbe or a longer initialDelaySeconds",
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    /// fresh-user report 2 G44: a probe's connection refused is the pod's, not the API server's.
    #[test]
    fn probe_refused_is_the_pods_not_the_api_servers() {
        let t = "LAST SEEN   TYPE      REASON      OBJECT              MESSAGE\n1m          Warning   Unhealthy   pod/api-7d9f-abcde  Liveness probe failed: Get \"http://10.244.2.15:8080/healthz\": dial tcp 10.244.2.15:8080: connect: connection refused\n";
        assert!(run_log("cluster-unreachable", t).is_empty());
        let f = run_log("pod-probe-failed", t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("10.244.2.15:8080"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("Liveness"), "{}", f[0].message);
    }

    #[test]
    fn pull_causes_from_each_runtime_wording() {
        let cases = [
            (
                "  Warning  Failed  2m  kubelet  Failed to pull image \"docker.io/library/python:3.11\": failed to pull and unpack image \"docker.io/library/python:3.11\": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/python/manifests/sha256:00: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.",
                "rate limit",
            ),
            (
                "  Warning  Failed  2m  kubelet  Failed to pull image \"ghcr.io/org/img:v1\": rpc error: code = Unknown desc = failed to pull and unpack image \"ghcr.io/org/img:v1\": failed to resolve reference \"ghcr.io/org/img:v1\": failed to do request: Head \"https://ghcr.io/v2/org/img/manifests/v1\": dial tcp: lookup ghcr.io on 10.0.0.2:53: no such host",
                "does not resolve on the node",
            ),
            (
                "  Warning  Failed  2m  kubelet  Failed to pull image \"harbor.corp.local/ml/train:1\": rpc error: code = Unknown desc = failed to pull and unpack image \"harbor.corp.local/ml/train:1\": failed to resolve reference \"harbor.corp.local/ml/train:1\": failed to do request: Head \"https://harbor.corp.local/v2/ml/train/manifests/1\": x509: certificate signed by unknown authority",
                "does not trust the registry",
            ),
            (
                "  Warning  Failed  2m  kubelet  Failed to pull image \"nvcr.io/nvidia/pytorch:24.01-py3\": rpc error: code = NotFound desc = failed to pull and unpack image \"nvcr.io/nvidia/pytorch:24.01-py3\": no match for platform in manifest: not found",
                "architecture",
            ),
            (
                "  Warning  Failed  2m  kubelet, node-1  Failed to pull image \"nginx:latst\": rpc error: code = Unknown desc = Error response from daemon: manifest for nginx:latst not found: manifest unknown: manifest unknown",
                "does not exist",
            ),
            (
                "  Warning  Failed  2m  kubelet  Failed to pull image \"private/model:1\": rpc error: code = Unknown desc = Error response from daemon: pull access denied for private/model, repository does not exist or may require 'docker login': denied: requested access to the resource is denied",
                "credentials",
            ),
            (
                "  Warning  Failed  2m  kubelet  Failed to pull image \"10.0.0.5:5000/app:1\": rpc error: code = Unknown desc = failed to pull and unpack image \"10.0.0.5:5000/app:1\": failed to resolve reference \"10.0.0.5:5000/app:1\": failed to do request: Head \"https://10.0.0.5:5000/v2/app/manifests/1\": http: server gave HTTP response to HTTPS client",
                "plain HTTP",
            ),
            (
                "  Warning  ErrImageNeverPull  2m  kubelet  Container image \"local/model:dev\" is not present with pull policy of Never",
                "imagePullPolicy is Never",
            ),
        ];
        for (line, want) in cases {
            for other in ["cluster-unreachable", "cluster-tls-untrusted"] {
                let f = run_log(other, line);
                assert!(f.is_empty(), "{other} on {line}: {f:#?}");
            }
            let f = run_log("image-pull-failed", line);
            assert_eq!(f.len(), 1, "{line}: {f:#?}");
            assert!(f[0].message.contains(want), "{want}: {}", f[0].message);
        }
    }

    /// Container waiting reasons of a pod object, with the runtime's message as the cause; a
    /// line ending in another `Error: <word>` is not an image pull.
    #[test]
    fn waiting_reason_of_a_pod_object() {
        let y = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: train-0\n  namespace: ml\nspec:\n  nodeName: gpu-01\n  containers:\n  - name: train\n    image: nvcr.io/nvidia/pytorch:24.01-py3\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: train\n    ready: false\n    restartCount: 0\n    image: nvcr.io/nvidia/pytorch:24.01-py3\n    imageID: \"\"\n    state:\n      waiting:\n        reason: ErrImagePull\n        message: 'failed to pull and unpack image \"nvcr.io/nvidia/pytorch:24.01-py3\": failed to resolve reference \"nvcr.io/nvidia/pytorch:24.01-py3\": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed'\n";
        let f = crate::rules::testutil::run_rule("image-pull-failed", y);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("pod ml/train-0"), "{}", f[0].message);
        assert!(f[0].message.contains("gpu-01"), "{}", f[0].message);
        assert!(f[0].message.contains("credentials"), "{}", f[0].message);
        assert!(run_log("image-pull-failed", "error: the server has asked for the client to provide credentials\nError: Unauthorized\n").is_empty());
    }

    /// A pull that failed (with the kubelet's follow-up lines that name no image: `Error:
    /// ErrImagePull`, `Error: ImagePullBackOff`) and succeeded later is history, as events of a
    /// `describe pod` whose container runs now and as a `kubectl get events` table; a pod that
    /// waits for its image now is not.
    #[test]
    fn a_later_pull_supersedes_the_failure_in_every_shape() {
        let events = "LAST SEEN   TYPE      REASON      OBJECT        MESSAGE\n10m         Warning   Failed      pod/train-0   Failed to pull image \"nvcr.io/nvidia/pytorch:24.01-py3\": rpc error: code = Unknown desc = failed to pull and unpack image \"nvcr.io/nvidia/pytorch:24.01-py3\": failed to copy: read tcp 10.0.0.31:51234->104.18.0.1:443: read: connection reset by peer\n10m         Warning   Failed      pod/train-0   Error: ErrImagePull\n10m         Normal    BackOff     pod/train-0   Back-off pulling image \"nvcr.io/nvidia/pytorch:24.01-py3\"\n10m         Warning   Failed      pod/train-0   Error: ImagePullBackOff\n2m          Normal    Pulled      pod/train-0   Successfully pulled image \"nvcr.io/nvidia/pytorch:24.01-py3\" in 7m1.2s\n2m          Normal    Started     pod/train-0   Started container train\n";
        assert!(crate::rules::testutil::run_rule("image-pull-failed", events).is_empty());
        // without the success it fires
        let failing: String = events
            .lines()
            .filter(|l| !l.contains("Pulled") && !l.contains("Started"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            crate::rules::testutil::run_rule("image-pull-failed", &failing).len(),
            1
        );
        let describe = "Name:         train-0\nNamespace:    ml\nNode:         gpu-01/10.0.0.31\nStatus:       Running\nContainers:\n  train:\n    Image:          nvcr.io/nvidia/pytorch:24.01-py3\n    State:          Running\n      Started:      Tue, 05 Mar 2024 10:25:11 +0000\n    Ready:          True\nEvents:\n  Type     Reason   Age   From     Message\n  ----     ------   ----  ----     -------\n  Warning  Failed   10m   kubelet  Failed to pull image \"nvcr.io/nvidia/pytorch:24.01-py3\": rpc error: code = Unknown desc = failed to pull and unpack image \"nvcr.io/nvidia/pytorch:24.01-py3\": failed to copy: read tcp 10.0.0.31:51234->104.18.0.1:443: read: connection reset by peer\n  Warning  Failed   10m   kubelet  Error: ErrImagePull\n  Normal   Started  2m    kubelet  Started container train\n";
        assert!(crate::rules::testutil::run_rule("image-pull-failed", describe).is_empty());
        // the same pod still waiting for its image: the finding stays
        let waiting = describe
            .replace("Status:       Running", "Status:       Pending")
            .replace(
                "    State:          Running\n      Started:      Tue, 05 Mar 2024 10:25:11 +0000\n    Ready:          True\n",
                "    State:          Waiting\n      Reason:       ImagePullBackOff\n    Ready:          False\n",
            );
        assert_eq!(
            crate::rules::testutil::run_rule("image-pull-failed", &waiting).len(),
            1
        );
    }

    /// A pull that failed once and succeeded later in the same events is history.
    #[test]
    fn pulled_later_stays_quiet() {
        let t = "Events:\n  Type     Reason   Age   From     Message\n  ----     ------   ----  ----     -------\n  Warning  Failed   3m    kubelet  Failed to pull image \"python:3.11\": rpc error: code = Unknown desc = failed to pull and unpack image \"docker.io/library/python:3.11\": dial tcp 1.2.3.4:443: i/o timeout\n  Normal   Pulled   1m    kubelet  Successfully pulled image \"python:3.11\" in 3.2s\n  Normal   Started  1m    kubelet  Started container app\n";
        assert!(run_log("image-pull-failed", t).is_empty());
        // healthy pull events say nothing
        let ok = "  Normal   Pulling  1m    kubelet  Pulling image \"python:3.11\"\n  Normal   Pulled   1m    kubelet  Successfully pulled image \"python:3.11\" in 3.2s\n";
        assert!(run_log("image-pull-failed", ok).is_empty());
        assert!(run_log("pod-probe-failed", ok).is_empty());
    }
}
