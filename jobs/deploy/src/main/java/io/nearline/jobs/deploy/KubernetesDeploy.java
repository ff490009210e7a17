/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.jobs.deploy;

import io.nearline.common.config.Config;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * {@code deploy --target kubernetes}: the resources a user applies with {@code kubectl apply -f DIR},
 * built to the published schemas of the Apache Flink Kubernetes Operator ({@code FlinkDeployment},
 * {@code FlinkSessionJob}) and of Strimzi ({@code KafkaConnect}, {@code KafkaConnector}), from the same
 * descriptor and cluster file as every other target: the job's arguments and Flink configuration are
 * the ones a session or YARN deploy submits ({@link FlinkDeploy#jobArguments},
 * {@link FlinkDeploy#flinkConfiguration}), a connector's configuration the one the REST target posts
 * ({@link ConnectDeploy#config}). Secrets stay references: each one the settings name becomes a key of
 * the descriptor's Kubernetes {@code Secret} (by default {@code NAME-secrets}), mounted as files in the
 * job's pods, or read by a Debezium connector through Strimzi's config provider; a template of that
 * Secret lists what to fill in. Nothing is applied: no cluster is reached from here.
 */
final class KubernetesDeploy {

    static final String FLINK_API = "flink.apache.org/v1beta1";
    static final String STRIMZI_API = "kafka.strimzi.io/v1beta2";
    /** Where the Secret's keys are files: in the Flink pods, and in the Connect pods. */
    static final String FLINK_SECRETS = "/etc/nearline/secrets";

    static final String CONNECT_SECRETS = "/mnt/nearline-secrets";
    /** Flink's Prometheus reporter, one JVM a pod; and the port Strimzi gives Connect's exporter. */
    static final int FLINK_METRICS_PORT = 9249;

    static final int CONNECT_METRICS_PORT = 9404;

    private static final String SECRET_VOLUME = "nearline-secrets";
    /** How a value read through a config provider starts ({@code ${secrets:...}}): a reference, not a secret. */
    private static final String CONFIG_PROVIDER_REFERENCE = "${";

    private static final Properties VERSIONS = versions();

    /** What the resources ask of the job: to run, or to be suspended (Flink, from a savepoint) or stopped. */
    enum JobState {
        RUNNING,
        SUSPENDED
    }

    /** One resource: the file it goes to and its body. */
    record Resource(String file, String kind, Map<String, Object> body) {}

    /**
     * What to write: a descriptor (target kubernetes) against a cluster file, with {@code --set}'s
     * overrides, a savepoint to start from (or null), the state the job should be in, and the tools'
     * home (the shipped Flink and Connect settings, the built artifacts).
     */
    record Request(
            Descriptor descriptor,
            ClusterFile cluster,
            Map<String, String> overrides,
            String savepoint,
            JobState state,
            Path home) {}

    private KubernetesDeploy() {}

    /**
     * The resources of {@code d} (target kubernetes) against cluster {@code c}: a {@code FlinkDeployment}
     * (or a {@code FlinkSessionJob} with {@code kubernetes.session}), or a {@code KafkaConnector} (and,
     * for the cache sink, the {@code KafkaConnect} that builds its plugin, with its metrics' ConfigMap);
     * then the Secret's template where the settings name a secret.
     */
    static List<Resource> resources(Request r) {
        Descriptor d = r.descriptor();
        ClusterFile c = r.cluster();
        Map<String, String> k = d.kubernetes();
        checkName(d, "name", d.name());
        String secretName = k.getOrDefault("secret", d.name() + "-secrets");
        checkName(d, "kubernetes.secret", secretName);
        List<Resource> out = new ArrayList<>();
        PodSecrets secrets;
        if (d.engine().equals("flink")) {
            secrets = new PodSecrets(secretName, FLINK_SECRETS);
            // secrets first: one written inline is refused without being repeated
            Map<String, String> settings = secrets.take(c.jobSettings(d.settings(), r.overrides()), d);
            JobSettingsCheck.check(d, settings);
            out.add(k.containsKey("session") ? flinkSessionJob(r, settings) : flinkDeployment(r, settings, secrets));
        } else {
            secrets = new PodSecrets(secretName, CONNECT_SECRETS);
            String connect = k.getOrDefault("connect-cluster", "nearline-connect");
            checkName(d, "kubernetes.connect-cluster", connect);
            Map<String, String> config = secrets.take(
                    ConnectDeploy.config(d, c, r.overrides(), kind -> secrets.connectProvided(d, kind)), d);
            out.add(kafkaConnector(d, connect, config, r.state()));
            if (ConnectDeploy.isCacheSink(d)) {
                out.add(kafkaConnect(d, c, connect, secrets, r.home()));
                out.add(connectMetrics(connect, d, r.home()));
            } else {
                out.addAll(secretReader(d, connect, secretName));
            }
        }
        if (!secrets.isEmpty()) {
            out.add(secrets.template(d));
        }
        return out;
    }

    /** Writes the resources into {@code dir} (or prints them, {@code dryRun}) with a short account of each. */
    static int write(List<Resource> resources, Descriptor d, Path dir, boolean dryRun) {
        if (dryRun) {
            for (Resource r : resources) {
                System.out.println("# " + r.file() + " (dry run: nothing written)");
                System.out.println("---");
                System.out.print(render(r, d));
            }
            return 0;
        }
        try {
            Files.createDirectories(dir);
            System.out.println("wrote the Kubernetes resources of " + d.name() + " (" + d.job() + " on " + d.engine()
                    + ") to " + dir + ":");
            Resource secret = null;
            for (Resource r : resources) {
                Files.writeString(dir.resolve(r.file()), render(r, d), StandardCharsets.UTF_8);
                System.out.printf("  %-52s %s%n", dir.resolve(r.file()), r.kind());
                if (r.kind().startsWith("Secret")) {
                    secret = r;
                }
            }
            System.out.println("apply: "
                    + (secret == null ? "" : "fill in " + dir.resolve(secret.file()) + ", then ")
                    + "kubectl apply -f " + dir);
            if (d.kubernetes().containsKey("session") && secret != null) {
                System.out.println("  the session " + d.kubernetes().get("session") + " must mount that Secret at "
                        + FLINK_SECRETS + " (a session job has no pods of its own)");
            }
            System.out.println("nothing was applied: this command writes resources and reaches no Kubernetes cluster");
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A resource's file: a line on where it came from, then its YAML. */
    static String render(Resource r, Descriptor d) {
        return "# Written by 'nearline deploy " + d.file().getFileName() + " --target kubernetes': edit the descriptor"
                + " and write it again\n# rather than editing this file.\n" + yaml().dump(r.body());
    }

    // ---- Flink: the Flink Kubernetes Operator's resources

    private static Resource flinkDeployment(Request r, Map<String, String> settings, PodSecrets secrets) {
        Descriptor d = r.descriptor();
        ClusterFile c = r.cluster();
        String image = required(
                d,
                "image",
                "the Flink image holding the job's jar in /opt/flink/usrlib (built FROM " + "flink:"
                        + VERSIONS.getProperty("flink") + "-java17)");
        if (c.flinkStateDir() == null) {
            throw new ClusterException("the cluster file in " + c.dir() + " has no flink.state-dir: a Kubernetes deploy"
                    + " needs one every pod reaches for checkpoints, savepoints and HA metadata (s3://..., hdfs://...):"
                    + " 'bin/nearline cluster init --flink-state URI'");
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("image", image);
        spec.put("flinkVersion", flinkVersion());
        spec.put("serviceAccount", d.kubernetes().getOrDefault("service-account", "flink"));
        spec.put("flinkConfiguration", applicationConfiguration(d, c, r.home()));
        spec.put("podTemplate", podTemplate(secrets));
        spec.put("jobManager", map("resource", map("memory", "2048m", "cpu", 1.0)));
        spec.put("taskManager", map("resource", map("memory", "2048m", "cpu", 1.0)));
        spec.put(
                "job", job(d, d.kubernetes().getOrDefault("jar-uri", localJar(d)), settings, r.savepoint(), r.state()));
        return new Resource(
                "flinkdeployment-" + d.name() + ".yaml",
                "FlinkDeployment (Flink Kubernetes Operator 1.13+)",
                resource(FLINK_API, "FlinkDeployment", d.name(), d, Map.of(), spec));
    }

    private static Resource flinkSessionJob(Request r, Map<String, String> settings) {
        Descriptor d = r.descriptor();
        String jar = required(
                d,
                "jar-uri",
                "where the operator fetches the job's jar for the session (https://..., "
                        + "s3://...): a session job has no image of its own");
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("deploymentName", d.kubernetes().get("session"));
        spec.put("flinkConfiguration", FlinkDeploy.flinkConfiguration(d));
        spec.put("job", job(d, jar, settings, r.savepoint(), r.state()));
        return new Resource(
                "flinksessionjob-" + d.name() + ".yaml",
                "FlinkSessionJob on session " + d.kubernetes().get("session"),
                resource(FLINK_API, "FlinkSessionJob", d.name(), d, Map.of(), spec));
    }

    /** The job: its jar, the arguments every target passes, and how the operator upgrades it. */
    private static Map<String, Object> job(
            Descriptor d, String jar, Map<String, String> settings, String savepoint, JobState state) {
        Map<String, Object> job = new LinkedHashMap<>();
        job.put("jarURI", jar);
        if (d.entryClass() != null) {
            job.put("entryClass", d.entryClass());
        }
        job.put("args", FlinkDeploy.jobArguments(settings));
        job.put("parallelism", d.parallelism());
        // restore: savepoint -> the operator stops the job with a savepoint and starts the new spec from it
        job.put("upgradeMode", d.restore() == Descriptor.Restore.SAVEPOINT ? "savepoint" : "stateless");
        job.put("state", state == JobState.RUNNING ? "running" : "suspended");
        if (savepoint != null) {
            job.put("initialSavepointPath", savepoint);
        }
        return job;
    }

    /**
     * An application's Flink configuration: the settings the jobs expect of a cluster
     * ({@code jobs/flink-conf/config.yaml}), the state directories and Kubernetes HA under the cluster's
     * {@code flink.state-dir}, one reporter port a pod, then the descriptor's own.
     */
    private static Map<String, String> applicationConfiguration(Descriptor d, ClusterFile c, Path home) {
        Map<String, String> conf = new LinkedHashMap<>(expectedFlinkSettings(home));
        String state = c.flinkState();
        conf.put("metrics.reporter.prom.port", Integer.toString(FLINK_METRICS_PORT));
        conf.put("taskmanager.numberOfTaskSlots", "2");
        conf.put("state.checkpoints.dir", state + "/flink-kubernetes/checkpoints");
        conf.put("state.savepoints.dir", state + "/savepoints");
        conf.put("high-availability.type", "kubernetes");
        conf.put("high-availability.storageDir", state + "/flink-kubernetes/ha");
        conf.putAll(FlinkDeploy.flinkConfiguration(d));
        return conf;
    }

    /** {@code jobs/flink-conf/config.yaml}: flat keys, as every Flink target starts from. */
    static Map<String, String> expectedFlinkSettings(Path home) {
        Path file = home.resolve("jobs/flink-conf/config.yaml");
        try {
            Map<String, Object> y = new Yaml(new SafeConstructor(new LoaderOptions()))
                    .load(Files.readString(file, StandardCharsets.UTF_8));
            Map<String, String> out = new LinkedHashMap<>();
            y.forEach((key, value) -> out.put(key, String.valueOf(value)));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The pods: the Secret's keys as files, its environment variables, and where Prometheus scrapes. */
    private static Map<String, Object> podTemplate(PodSecrets secrets) {
        Map<String, Object> container = new LinkedHashMap<>();
        container.put("name", "flink-main-container"); // the operator merges this into Flink's own container
        container.put("ports", List.of(map("name", "metrics", "containerPort", FLINK_METRICS_PORT)));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("containers", List.of(container));
        if (!secrets.isEmpty()) {
            if (!secrets.files.isEmpty()) {
                container.put("volumeMounts", List.of(secrets.volumeMount()));
                spec.put("volumes", List.of(secrets.volume()));
            }
            if (!secrets.env.isEmpty()) {
                container.put("env", secrets.envFromSecret());
            }
        }
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        pod.put("metadata", map("annotations", scrapeAnnotations(FLINK_METRICS_PORT)));
        pod.put("spec", spec);
        return pod;
    }

    private static String localJar(Descriptor d) {
        return "local:///opt/flink/usrlib/" + Path.of(d.artifact()).getFileName();
    }

    /** {@code v2_2} for Flink 2.2.x: the operator's name for the Flink version the jobs are built with. */
    static String flinkVersion() {
        String[] v = VERSIONS.getProperty("flink").split("\\.");
        return "v" + v[0] + "_" + v[1];
    }

    // ---- Kafka Connect: Strimzi's resources

    private static Resource kafkaConnector(
            Descriptor d, String connectCluster, Map<String, String> config, JobState state) {
        Map<String, String> rest = new LinkedHashMap<>(config);
        String connectorClass = rest.remove("connector.class");
        rest.remove("tasks.max");
        rest.remove("name");
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("class", connectorClass);
        spec.put("tasksMax", d.parallelism());
        spec.put("state", state == JobState.RUNNING ? "running" : "stopped");
        spec.put("config", new TreeMap<>(rest));
        return new Resource(
                "kafkaconnector-" + d.name() + ".yaml",
                "KafkaConnector (Strimzi 0.4x) on KafkaConnect " + connectCluster,
                resource(STRIMZI_API, "KafkaConnector", d.name(), d, map("strimzi.io/cluster", connectCluster), spec));
    }

    /**
     * The Connect cluster the cache sink runs on, built by Strimzi with the sink's plugin (the zip at
     * {@code kubernetes.plugin-url}, checked against the local build's SHA-512) and Debezium's
     * connectors, the Secret mounted for the connectors' references, and the worker's exporter.
     */
    private static Resource kafkaConnect(
            Descriptor d, ClusterFile c, String connectCluster, PodSecrets secrets, Path home) {
        String image = required(
                d,
                "image",
                "the image Strimzi builds the Connect worker into, with the plugins "
                        + "(e.g. registry.example.com/nearline-connect:1)");
        String pluginUrl = required(
                d,
                "plugin-url",
                "where Strimzi downloads the sink's zip: the build's "
                        + "jobs/target/dist/nearline-cache-sink-connect.zip, published at an https:// URL");
        if (d.artifact().isBlank()) {
            throw new ClusterException(d.file() + ": artifact is required for the cache sink on Kubernetes: the "
                    + "plugin zip (nearline-cache-sink-connect.zip) whose SHA-512 Strimzi checks its download against");
        }
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("group.id", connectCluster);
        config.put("offset.storage.topic", connectCluster + "-offsets");
        config.put("config.storage.topic", connectCluster + "-configs");
        config.put("status.storage.topic", connectCluster + "-status");
        // Debezium's connectors read their passwords through the Kubernetes API: ${secrets:NAMESPACE/SECRET:KEY}
        config.put("config.providers", "secrets");
        config.put("config.providers.secrets.class", "io.strimzi.kafka.KubernetesSecretConfigProvider");
        List<Object> plugins = connectPlugins(pluginUrl, sha512(d.artifactPath(home)));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("replicas", 1);
        spec.put("bootstrapServers", c.kafkaBootstrapServers());
        kafkaLogin(c, secrets, spec);
        spec.put("config", config);
        spec.put("build", map("output", map("type", "docker", "image", image), "plugins", plugins));
        spec.put(
                "metricsConfig",
                map(
                        "type",
                        "jmxPrometheusExporter",
                        "valueFrom",
                        map("configMapKeyRef", map("name", connectCluster + "-metrics", "key", "jmx-exporter.yaml"))));
        spec.put("template", connectTemplate(secrets));
        return new Resource(
                "kafkaconnect-" + connectCluster + ".yaml",
                "KafkaConnect (Strimzi 0.4x): the worker, with the sink's and Debezium's plugins",
                annotated(
                        resource(STRIMZI_API, "KafkaConnect", connectCluster, d, Map.of(), spec),
                        map("strimzi.io/use-connector-resources", "true")));
    }

    /** The plugins Strimzi builds into the worker's image: the sink's zip (checked by its SHA-512) and Debezium's connectors. */
    private static List<Object> connectPlugins(String pluginUrl, String sinkSha512) {
        List<Object> plugins = new ArrayList<>();
        plugins.add(map(
                "name",
                "nearline-cache-sink",
                "artifacts",
                List.of(map("type", "zip", "url", pluginUrl, "sha512sum", sinkSha512))));
        for (String kind : List.of("postgres", "mysql")) {
            plugins.add(map(
                    "name",
                    "debezium-" + kind,
                    "artifacts",
                    List.of(map(
                            "type",
                            "maven",
                            "group",
                            "io.debezium",
                            "artifact",
                            "debezium-connector-" + kind,
                            "version",
                            VERSIONS.getProperty("debezium")))));
        }
        return plugins;
    }

    /** The worker's pods: where Prometheus scrapes them, and the Secret's keys as files where there are any. */
    private static Map<String, Object> connectTemplate(PodSecrets secrets) {
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("metadata", map("annotations", scrapeAnnotations(CONNECT_METRICS_PORT)));
        Map<String, Object> template = new LinkedHashMap<>();
        template.put("pod", pod);
        if (!secrets.files.isEmpty()) {
            pod.put("volumes", List.of(secrets.volume()));
            template.put("connectContainer", map("volumeMounts", List.of(secrets.volumeMount())));
        }
        return template;
    }

    /**
     * The worker's login to a secured Kafka, from the cluster file's {@code kafka:} section: SASL's user,
     * its password from the Secret, and TLS trusting a CA certificate the Secret holds (Strimzi takes PEM
     * certificates, not the truststore file the jobs read).
     */
    private static void kafkaLogin(ClusterFile c, PodSecrets secrets, Map<String, Object> spec) {
        String protocol = c.kafkaSecurity().getOrDefault("security.protocol", "plaintext");
        if (protocol.contains("sasl")) {
            String mechanism = c.kafkaSecurity().getOrDefault("sasl.mechanism", "scram-sha-512");
            spec.put(
                    "authentication",
                    map(
                            "type",
                            mechanism,
                            "username",
                            c.kafkaSecurity().getOrDefault("sasl.username", ""),
                            "passwordSecret",
                            map(
                                    "secretName",
                                    secrets.name,
                                    "password",
                                    secrets.key("kafka.sasl.password", "the Kafka user's password"))));
        }
        if (protocol.contains("ssl")) {
            spec.put(
                    "tls",
                    map(
                            "trustedCertificates",
                            List.of(map(
                                    "secretName",
                                    secrets.name,
                                    "certificate",
                                    secrets.key("kafka-ca.crt", "the brokers' CA certificate, PEM")))));
        }
    }

    /**
     * Leave for the Connect worker's service account (Strimzi names it {@code CLUSTER-connect}) to read one
     * Secret: what Strimzi's {@code KubernetesSecretConfigProvider} needs for a connector's
     * {@code ${secrets:...}} reference.
     */
    private static List<Resource> secretReader(Descriptor d, String connectCluster, String secretName) {
        String role = d.name() + "-secret-reader";
        Map<String, Object> roleBody = resource("rbac.authorization.k8s.io/v1", "Role", role, d, Map.of(), null);
        roleBody.put(
                "rules",
                List.of(map(
                        "apiGroups", List.of(""),
                        "resources", List.of("secrets"),
                        "resourceNames", List.of(secretName),
                        "verbs", List.of("get"))));
        Map<String, Object> binding = resource("rbac.authorization.k8s.io/v1", "RoleBinding", role, d, Map.of(), null);
        binding.put(
                "subjects",
                List.of(map(
                        "kind",
                        "ServiceAccount",
                        "name",
                        connectCluster + "-connect",
                        "namespace",
                        d.kubernetes().get("namespace"))));
        binding.put("roleRef", map("kind", "Role", "name", role, "apiGroup", "rbac.authorization.k8s.io"));
        return List.of(
                new Resource("role-" + role + ".yaml", "Role: the Connect worker may read " + secretName, roleBody),
                new Resource(
                        "rolebinding-" + role + ".yaml", "RoleBinding: to " + connectCluster + "-connect", binding));
    }

    /** The rules of the worker's JMX exporter (jobs/connect-conf/jmx-exporter.yaml), as Strimzi reads them. */
    private static Resource connectMetrics(String connectCluster, Descriptor d, Path home) {
        String rules;
        try {
            rules = Files.readString(home.resolve("jobs/connect-conf/jmx-exporter.yaml"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Object> body = resource("v1", "ConfigMap", connectCluster + "-metrics", d, Map.of(), null);
        body.put("data", map("jmx-exporter.yaml", rules));
        return new Resource(
                "configmap-" + connectCluster + "-metrics.yaml", "ConfigMap: the worker's exporter rules", body);
    }

    // ---- shared

    /** A resource's body: its kind, its name and labels (in the descriptor's namespace), its spec (null: none). */
    private static Map<String, Object> resource(
            String api, String kind, String name, Descriptor d, Map<String, ?> labels, Map<String, Object> spec) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        if (d.kubernetes().containsKey("namespace")) {
            metadata.put("namespace", d.kubernetes().get("namespace"));
        }
        Map<String, Object> allLabels = new TreeMap<>(labels);
        allLabels.put("app.kubernetes.io/part-of", "nearline");
        allLabels.put("app.kubernetes.io/name", d.job());
        metadata.put("labels", allLabels);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("apiVersion", api);
        body.put("kind", kind);
        body.put("metadata", metadata);
        if (spec != null) { // a Secret, a ConfigMap, a Role have none
            body.put("spec", spec);
        }
        return body;
    }

    /** {@code body} with these annotations on its metadata. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> annotated(Map<String, Object> body, Map<String, ?> annotations) {
        ((Map<String, Object>) body.get("metadata")).put("annotations", annotations);
        return body;
    }

    private static Map<String, String> scrapeAnnotations(int port) {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("prometheus.io/scrape", "true");
        a.put("prometheus.io/port", Integer.toString(port));
        a.put("prometheus.io/path", "/metrics");
        return a;
    }

    private static String required(Descriptor d, String key, String what) {
        String v = d.kubernetes().get(key);
        if (v == null || v.isBlank()) {
            throw new ClusterException(
                    d.file() + ": kubernetes." + key + " is required for a Kubernetes deploy: " + what);
        }
        return v;
    }

    /** Kubernetes names: lower-case letters, digits, '-' and '.', starting and ending alphanumeric, up to 253. */
    private static void checkName(Descriptor d, String key, String name) {
        if (!name.matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")) {
            throw new ClusterException(d.file() + ": " + key + " '" + name + "' is not a Kubernetes name (lower-case "
                    + "letters, digits, '-' and '.', starting and ending with a letter or digit)");
        }
    }

    static String sha512(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-512");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A mapping in the order written: resources read top-down the same way on every run. */
    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    private static Yaml yaml() {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setWidth(160);
        return new Yaml(options);
    }

    private static Properties versions() {
        Properties p = new Properties();
        try (InputStream in = KubernetesDeploy.class.getResourceAsStream("versions.properties")) {
            p.load(in);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("versions.properties is missing from the deploy module", e);
        }
        return p;
    }

    /**
     * The secrets a deploy's settings name, moved into one Kubernetes Secret: a {@code file:PATH}
     * reference becomes a key of the Secret (the setting's name) read from where the Secret is mounted,
     * an {@code env:VAR} reference an environment variable filled from the Secret's key {@code VAR}, a
     * truststore its file; a secret written inline is refused. What each key must hold is kept for the
     * Secret's template.
     */
    static final class PodSecrets {
        final String name;
        final String mount;
        /** Key -> what to fill in, for keys mounted as files. */
        final Map<String, String> files = new TreeMap<>();
        /** Environment variable (and key) -> what to fill in. */
        final Map<String, String> env = new TreeMap<>();

        PodSecrets(String name, String mount) {
            this.name = name;
            this.mount = mount;
        }

        boolean isEmpty() {
            return files.isEmpty() && env.isEmpty();
        }

        /** {@code settings} with every secret reference pointing into the Secret. */
        Map<String, String> take(Map<String, String> settings, Descriptor d) {
            Map<String, String> out = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : settings.entrySet()) {
                out.put(e.getKey(), inPods(e.getKey(), e.getValue(), d));
            }
            return out;
        }

        /** One setting's value as the pods read it; a secret written inline is refused. */
        private String inPods(String key, String value, Descriptor d) {
            if (value.startsWith("file:")) {
                return "file:" + mount + "/" + key(key, "what " + value.substring(5) + " holds");
            }
            if (value.startsWith("env:")) {
                String var = value.substring(4);
                env.put(var, "what the variable " + var + " holds (" + key + ")");
                return value;
            }
            if (key.endsWith("ssl.truststore") && !value.isBlank()) {
                return mount + "/" + key(key, "the truststore file " + value + ", base64 under data:");
            }
            if (Config.isSecretName(key) && !value.isBlank() && !value.startsWith(CONFIG_PROVIDER_REFERENCE)) {
                throw new ClusterException(d.file() + ": " + key + " is written inline; a Kubernetes deploy takes "
                        + "secrets by reference only (file:PATH or env:VAR), and the Secret " + name
                        + " carries them into the pods");
            }
            return value;
        }

        /** A key of the Secret, with what it must hold; returns the key. */
        String key(String key, String what) {
            files.put(key, what);
            return key;
        }

        /**
         * A Debezium connector's database password: a key of the Secret, read by Strimzi's
         * KubernetesSecretConfigProvider in the namespace the resources go to.
         */
        String connectProvided(Descriptor d, String kind) {
            String namespace = d.kubernetes().get("namespace");
            if (namespace == null) {
                throw new ClusterException(
                        d.file() + ": kubernetes.namespace is required for a Debezium connector: its "
                                + "password is read from the Secret through the Kubernetes API, ${secrets:NAMESPACE/SECRET:KEY}");
            }
            String key = key(kind + ".password", "the password of the " + kind + " user the connector logs in as");
            return "${secrets:" + namespace + "/" + name + ":" + key + "}";
        }

        Map<String, Object> volume() {
            return map("name", SECRET_VOLUME, "secret", map("secretName", name));
        }

        Map<String, Object> volumeMount() {
            return map("name", SECRET_VOLUME, "mountPath", mount, "readOnly", true);
        }

        List<Object> envFromSecret() {
            List<Object> out = new ArrayList<>();
            env.keySet()
                    .forEach(var ->
                            out.add(map("name", var, "valueFrom", map("secretKeyRef", map("name", name, "key", var)))));
            return out;
        }

        /** The Secret with a line for each key saying what to fill in. */
        Resource template(Descriptor d) {
            Map<String, String> data = new TreeMap<>();
            files.forEach((key, what) -> data.put(key, "FILL IN: " + what));
            env.forEach((var, what) -> data.put(var, "FILL IN: " + what));
            Map<String, Object> body = resource("v1", "Secret", name, d, Map.of(), null);
            body.put("type", "Opaque");
            body.put("stringData", data);
            return new Resource(
                    "secret-" + name + ".yaml", "Secret template: fill in " + data.size() + " value(s)", body);
        }
    }
}
