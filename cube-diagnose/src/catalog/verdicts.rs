//! Entries for verdicts printed without an error marker and for certificate lifetimes: kubeadm's
//! fatal init/join verdicts (the `wait-control-plane` and `[control-plane-check]` texts), the
//! lines kubeadm's `certs check-expiration` prints around its table, and the kubelet
//! certificate manager's rotation failures (client-go `util/certificate/certificate_manager.go`).
//! Read by `rules::kubeadm_phase` and `rules::cert_expiry`; chained after
//! [`super::ENTRIES`] by [`super::all`].

use super::{Entry, Family as F};
use crate::Severity::{Error, Info, Warning};
use crate::classify::SignalKind as K;

const K8S: &str = "kubernetes/kubernetes";
const JOIN_KUBELET: &str = "cmd/kubeadm/app/cmd/phases/join/kubelet.go";
const WAIT_CP: &str = "cmd/kubeadm/app/cmd/phases/init/waitcontrolplane.go";
const CERT_MANAGER: &str = "util/certificate/certificate_manager.go";
const CERTS_CMD: &str = "cmd/kubeadm/app/cmd/certs.go (check-expiration; cmd/kubeadm/app/cmd/alpha/certs.go in v1.15-v1.19)";

/// The remedy of a control plane that never came up in kubeadm's `wait-control-plane` phase.
pub(crate) const CONTROL_PLANE_WAIT_REMEDY: &str = "on this node read why the static pods do not come up: `systemctl status kubelet` and `journalctl -xeu kubelet` (cgroup driver, swap, a kubelet flag), then `crictl --runtime-endpoint unix:///run/containerd/containerd.sock ps -a | grep kube | grep -v pause` and `crictl logs <container>` of the kube-apiserver or etcd container that exits (a wrong --advertise-address, an etcd data dir left from an earlier install, expired or missing certificates); fix it, then `kubeadm reset -f` and run `kubeadm init` again";

/// The remedy of expired kubeadm-managed control-plane certificates.
pub(crate) const CERTS_RENEW_REMEDY: &str = "on every control-plane node `sudo kubeadm certs renew all` (`kubeadm alpha certs renew all` before v1.20), then restart the control-plane static pods so they load the new certificates (move the manifests out of /etc/kubernetes/manifests and back, or restart the kubelet) and copy the renewed /etc/kubernetes/admin.conf to ~/.kube/config; check with `sudo kubeadm certs check-expiration`";

/// The remedy of a kubelet whose certificate rotation fails.
pub(crate) const ROTATION_REMEDY: &str = "`kubectl get csr` shows the kubelet's requests: a Pending kubernetes.io/kubelet-serving request waits for a person or an approver (serverTLSBootstrap has no built-in approver: `kubectl certificate approve <name>`, or deploy kubelet-csr-approver); a client request (kubernetes.io/kube-apiserver-client-kubelet) is approved by kube-controller-manager's csrapproving controller, which must run, and the kubeadm ClusterRoleBinding `kubeadm:node-autoapprove-certificate-rotation` must exist; if the node's client certificate already expired, re-issue it (`kubeadm kubeconfig user --org system:nodes --client-name system:node:<node>` into /etc/kubernetes/kubelet.conf, then `systemctl restart kubelet`)";

/// The remedy of a command line the CLI refused (a usage error).
pub(crate) const CLI_USAGE_REMEDY: &str = "correct the command line (`<command> -h` shows its arguments and flags) and run it again; its output, not this refusal, is what tells about the cluster";

/// The extra entries (error catalog, after [`super::ENTRIES`]).
pub static EXTRA: &[Entry] = &[
    // ------------------------------------------------------------------ kubeadm init verdicts
    // waitcontrolplane.go returns `couldn't initialize a Kubernetes cluster` (v1.13-v1.29;
    // cmd/kubeadm/app/cmd/init.go before v1.13) and `could not initialize a Kubernetes cluster`
    // (v1.30+) after printing kubeletFailTempl; runner.go wraps it as `error execution phase
    // wait-control-plane: ...`. Nothing marks the line as an error.
    Entry::new("kubeadm.init.could-not-initialize", F::Kubeadm,
        "ould not initialize a Kubernetes cluster",
        K8S, WAIT_CP, "v1.30+")
        .to(K::Known, "kubeadm-phase-failed", Error).group("kubeadm-init").join()
        .says("kubeadm init failed: the control plane's static pods did not become healthy in the wait-control-plane phase (the kubelet is not running or unhealthy, or kube-apiserver / etcd keep exiting)", CONTROL_PLANE_WAIT_REMEDY),
    Entry::new("kubeadm.init.couldnt-initialize", F::Kubeadm,
        "couldn't initialize a Kubernetes cluster",
        K8S, WAIT_CP, "v1.9-v1.29")
        .to(K::Known, "kubeadm-phase-failed", Error).group("kubeadm-init").join()
        .says("kubeadm init failed: the control plane's static pods did not become healthy in the wait-control-plane phase (the kubelet is not running or unhealthy, or kube-apiserver / etcd keep exiting)", CONTROL_PLANE_WAIT_REMEDY),
    // v1.31+ (WaitForAllControlPlaneComponents, default in v1.33): per-component checks
    // (cmd/kubeadm/app/util/apiclient/wait.go WaitForControlPlaneComponents)
    Entry::new("kubeadm.control-plane-check.not-healthy", F::Kubeadm,
        "[control-plane-check] {component:w} is not healthy after {duration:w}",
        K8S, "cmd/kubeadm/app/util/apiclient/wait.go (WaitForControlPlaneComponents)", "v1.31+")
        .to(K::Known, "kubeadm-phase-failed", Error).group("kubeadm-init").join()
        .says("kubeadm init failed: {component} did not become healthy within {duration} (its container keeps exiting or never started)", CONTROL_PLANE_WAIT_REMEDY)
        .samples(&[("component", "kube-apiserver"), ("duration", "4m0.000388s")]),
    // kubeadm join, after the TLS bootstrap: it annotates the new Node with its CRI socket
    // (`patchnodephase.AnnotateCRISocket`, which polls until the Node object exists), wrapped
    // `errors.Wrap(err, "error uploading crisocket")` (cmd/kubeadm/app/cmd/phases/join/kubelet.go;
    // cmd/kubeadm/app/cmd/join.go in v1.12-v1.13 with fmt.Errorf)
    Entry::new("kubeadm.join.crisocket-unauthorized", F::Kubeadm,
        "error uploading crisocket: Unauthorized",
        K8S, JOIN_KUBELET, "v1.12+")
        .to(K::Known, "kubeadm-phase-failed", Error).group("crisocket").join().exclusive()
        .says("kubeadm join used a kubelet kubeconfig (/etc/kubernetes/kubelet.conf) whose credentials the API server rejects: a leftover of an earlier join to another or a re-initialised cluster, kept because the node was not reset (and its preflight errors were ignored)", "on this node `kubeadm reset -f` (it removes /etc/kubernetes/kubelet.conf and the kubelet's old certificates in /var/lib/kubelet/pki), then join again with a fresh `kubeadm token create --print-join-command` and without `--ignore-preflight-errors=all`"),
    Entry::new("kubeadm.join.crisocket-timeout", F::Kubeadm,
        "error uploading crisocket: {error}",
        K8S, JOIN_KUBELET, "v1.12+")
        .to(K::Known, "kubeadm-phase-failed", Error).group("crisocket").join()
        .says("kubeadm join got the kubelet's client certificate, then waited in vain for the kubelet to register its Node ({error}): the kubelet exits or stalls right after the bootstrap (swap on, a cgroup driver other than the container runtime's, the runtime's socket unreachable) or registers under another name than kubeadm expects (--hostname-override, a cloud provider's node name)", "on this node `journalctl -xeu kubelet` says why it does not register (`swapoff -a` and remove swap from /etc/fstab; the same cgroup driver, systemd, for the kubelet and containerd); `kubectl get nodes` on the control plane shows whether it registered under another name; then `kubeadm reset -f` and join again with a fresh `kubeadm token create --print-join-command`")
        .samples(&[("error", "timed out waiting for the condition")]),
    // ------------------------------------------------------------------ kubeadm certs check-expiration
    Entry::new("kubeadm.certs.config-fallback", F::Kubeadm,
        "Error reading configuration from the Cluster. Falling back to",
        K8S, CERTS_CMD, "v1.15+").complete(),
    Entry::new("kubeadm.certs.config-reading", F::Kubeadm,
        "Reading configuration from the {configmap:w} ConfigMap in namespace {namespace:w}...",
        K8S, "cmd/kubeadm/app/util/config/cluster.go (FetchInitConfigurationFromCluster)", "v1.29+").complete()
        .samples(&[("configmap", "\"kubeadm-config\""), ("namespace", "\"kube-system\"")]),
    // ------------------------------------------------------------------ kubelet certificate manager
    // client-go util/certificate/certificate_manager.go: `Reached backoff limit, still unable
    // to rotate certs: %v` (v1.8-v1.19; `%s: ` + the manager's name from v1.20, `reached`
    // lower-cased in some forks), `Certificate request was not signed: %v` (`certificate` from
    // v1.20, with the name), `Failed while requesting a signed certificate from the master: %v`
    // (`control plane` from v1.20), V(2) `Current certificate is expired`. The name tells the
    // signer: `kubernetes.io/kubelet-serving` (the serving certificate: kubectl logs/exec fail)
    // or `kubernetes.io/kube-apiserver-client-kubelet` (the node's client certificate).
    Entry::new("kubelet.cert-rotation-backoff", F::Kubelet,
        "eached backoff limit, still unable to rotate certs: {error}",
        "kubernetes/client-go", CERT_MANAGER, "v1.8+")
        .to(K::Known, "certificate-expired", Warning).group("kubelet-rotation")
        .says("the kubelet cannot rotate its certificate ({error}): when the current one expires the node loses its connection to the API server (client certificate) or kubectl logs/exec to it fail (serving certificate)", ROTATION_REMEDY),
    Entry::new("kubelet.cert-request-not-signed", F::Kubelet,
        "ertificate request was not signed: {error}",
        "kubernetes/client-go", CERT_MANAGER, "v1.8+")
        .to(K::Known, "certificate-expired", Warning).group("kubelet-rotation")
        .says("the kubelet's certificate signing request was not signed ({error}): nothing approved it", ROTATION_REMEDY),
    Entry::new("kubelet.cert-request-failed-master", F::Kubelet,
        "Failed while requesting a signed certificate from the master: {error}",
        "kubernetes/client-go", CERT_MANAGER, "v1.8-v1.19")
        .to(K::Known, "certificate-expired", Warning).group("kubelet-rotation")
        .says("the kubelet cannot request a new certificate ({error})", ROTATION_REMEDY),
    Entry::new("kubelet.cert-request-failed", F::Kubelet,
        "Failed while requesting a signed certificate from the control plane: {error}",
        "kubernetes/client-go", CERT_MANAGER, "v1.20+")
        .to(K::Known, "certificate-expired", Warning).group("kubelet-rotation")
        .says("the kubelet cannot request a new certificate ({error})", ROTATION_REMEDY),
    Entry::new("kubelet.cert-current-expired", F::Kubelet,
        "Current certificate is expired",
        "kubernetes/client-go", CERT_MANAGER, "v1.8+ (V(2))")
        .to(K::Known, "certificate-expired", Error).group("kubelet-expired")
        .says("the kubelet's current certificate is expired: with the client certificate the node cannot authenticate to the API server and turns NotReady", ROTATION_REMEDY),
    // ------------------------------------------------------------------ CLI usage errors
    // A command line the CLI itself refused before it asked any server: cobra's argument
    // checks (spf13/cobra args.go: legacyArgs/NoArgs `unknown command %q for %q`, ExactArgs
    // `accepts %d arg(s), received %d`, MinimumNArgs `requires at least %d arg(s), only received
    // %d`, MaximumNArgs `accepts at most %d arg(s), received %d`, RangeArgs `accepts between %d
    // and %d arg(s), received %d`; command.go validateRequiredFlags `required flag(s) %s not
    // set`), pflag's parser (spf13/pflag flag.go: `unknown flag: --%s`, `unknown shorthand flag:
    // %q in -%s`, `flag needs an argument: %s`), kubectl's cmdutil.UsageErrorf footer
    // (k8s.io/kubectl pkg/cmd/util/helpers.go `See '%s -h' for help and examples`) and
    // karmadactl's operation-scope check (karmada pkg/karmadactl/exec/exec.go and its siblings
    // `must specify a member cluster`). kubectl, karmadactl, helm, k3s, kubeadm, clusteradm and
    // argocd are cobra programs and print them behind `error: ` / `Error: `. They say the command
    // was mistyped, nothing about the cluster.
    Entry::new("cli.cobra.unknown-command", F::Client,
        "unknown command {arg:w} for {cmd}",
        "spf13/cobra", "args.go (legacyArgs, NoArgs)", "cobra v0.0.1+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a command line was refused by the CLI itself: unknown command {arg} for {cmd}; the cluster was not asked", CLI_USAGE_REMEDY)
        .samples(&[("arg", "\"nodez\""), ("cmd", "\"kubectl get\"")]),
    Entry::new("cli.cobra.exact-args", F::Client,
        "accepts {n:w} arg(s), received {m:w}",
        "spf13/cobra", "args.go (ExactArgs)", "cobra v0.0.1+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a command line was refused by the CLI itself: it takes {n} argument(s) and got {m}; the cluster was not asked", CLI_USAGE_REMEDY)
        .samples(&[("n", "1"), ("m", "2")]),
    Entry::new("cli.cobra.minimum-args", F::Client,
        "requires at least {n:w} arg(s), only received {m:w}",
        "spf13/cobra", "args.go (MinimumNArgs)", "cobra v0.0.1+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a command line was refused by the CLI itself: it needs at least {n} argument(s) and got {m}; the cluster was not asked", CLI_USAGE_REMEDY)
        .samples(&[("n", "1"), ("m", "0")]),
    Entry::new("cli.cobra.maximum-args", F::Client,
        "accepts at most {n:w} arg(s), received {m:w}",
        "spf13/cobra", "args.go (MaximumNArgs)", "cobra v0.0.1+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a command line was refused by the CLI itself: it takes at most {n} argument(s) and got {m}; the cluster was not asked", CLI_USAGE_REMEDY)
        .samples(&[("n", "1"), ("m", "3")]),
    Entry::new("cli.cobra.range-args", F::Client,
        "accepts between {a:w} and {b:w} arg(s), received {m:w}",
        "spf13/cobra", "args.go (RangeArgs)", "cobra v0.0.1+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a command line was refused by the CLI itself: it takes {a} to {b} arguments and got {m}; the cluster was not asked", CLI_USAGE_REMEDY)
        .samples(&[("a", "1"), ("b", "2"), ("m", "0")]),
    Entry::new("cli.cobra.required-flags", F::Client,
        "required flag(s) {flags} not set",
        "spf13/cobra", "command.go (validateRequiredFlags)", "cobra v0.0.4+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a command line was refused by the CLI itself: required flag(s) {flags} not given; the cluster was not asked", CLI_USAGE_REMEDY)
        .samples(&[("flags", "\"kubeconfig\"")]),
    Entry::new("cli.pflag.unknown-shorthand", F::Client,
        "unknown shorthand flag: {flag:w} in {arg:w}",
        "spf13/pflag", "flag.go (parseSingleShortArg)", "pflag v1.0.0+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a command line was refused by the CLI itself: unknown flag {flag} in {arg}; the cluster was not asked", CLI_USAGE_REMEDY)
        .samples(&[("flag", "'z'"), ("arg", "-z")]),
    Entry::new("cli.pflag.unknown-flag", F::Client,
        "unknown flag: --{flag:w}",
        "spf13/pflag", "flag.go (parseLongArg)", "pflag v1.0.0+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a command line was refused by the CLI itself: unknown flag --{flag}; the cluster was not asked", CLI_USAGE_REMEDY)
        .samples(&[("flag", "all-namespace")]),
    Entry::new("cli.pflag.needs-argument", F::Client,
        "flag needs an argument: {flag}",
        "spf13/pflag", "flag.go (parseLongArg, parseSingleShortArg)", "pflag v1.0.0+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a command line was refused by the CLI itself: flag {flag} needs a value; the cluster was not asked", CLI_USAGE_REMEDY)
        .samples(&[("flag", "--namespace")]),
    Entry::new("cli.kubectl.usage-footer", F::Client,
        "See '{cmd} -h' for help and examples",
        K8S, "staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (UsageErrorf)", "v1.5+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a command line was refused by {cmd} itself (a usage error; the line above says what was wrong); the cluster was not asked", CLI_USAGE_REMEDY)
        .samples(&[("cmd", "kubectl exec")]),
    Entry::new("cli.cobra.run-help", F::Client,
        "Run '{cmd} --help' for usage.",
        "spf13/cobra", "command.go (ExecuteC, after a usage error when SilenceUsage is set)", "cobra v1.0+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a command line was refused by {cmd} itself (a usage error; the line above says what was wrong); the cluster was not asked", CLI_USAGE_REMEDY)
        .samples(&[("cmd", "helm install")]),
    Entry::new("cli.kubectl.flag-error-footer", F::Client,
        "See '{cmd} --help' for usage.",
        K8S, "staging/src/k8s.io/kubectl/pkg/cmd/cmd.go (SetFlagErrorFunc)", "v1.5+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a command line was refused by {cmd} itself (a flag error; the line above says which); the cluster was not asked", CLI_USAGE_REMEDY)
        .samples(&[("cmd", "kubectl get")]),
    // a Kubernetes component (kube-proxy, metrics-server, a controller) refusing its own
    // command line: component-base/cli run.go prints cobra's error as `"command failed"
    // err="unknown flag: --x"` and the program exits 1 (its pod crash-loops)
    Entry::new("cli.component.unknown-flag", F::Client,
        "command failed\" err=\"unknown flag: --{flag:w}",
        K8S, "staging/src/k8s.io/component-base/cli/run.go (RunNoErrOutput)", "v1.21+")
        .to(K::Known, "cli-usage-error", Warning).group("cli-usage").exclusive()
        .says("a Kubernetes component refused its own command line: unknown flag --{flag} (a flag renamed or removed in its version); it exits at start", "remove or rename --{flag} in the component's command line (its Deployment/DaemonSet args, its static pod manifest or its systemd unit), as that version's `--help` lists")
        .samples(&[("flag", "resource-container")]),
    Entry::new("cli.karmadactl.member-cluster", F::Karmada,
        "must specify a member cluster",
        "karmada-io/karmada", "pkg/karmadactl/exec/exec.go (and describe, attach, explain, api-resources: Validate)", "v1.7+")
        .to(K::Known, "cli-usage-error", Info).group("cli-usage").exclusive().at_start()
        .says("a karmadactl command with --operation-scope=members was refused by karmadactl itself: it needs --cluster=<member>; the cluster was not asked", "add `--cluster=<member>` (one of `kubectl get clusters` on karmada-apiserver) to the command"),

];
