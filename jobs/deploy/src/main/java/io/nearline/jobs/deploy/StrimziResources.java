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

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Strimzi's resources for a connector: the {@code KafkaConnector}, and for the cache sink the
 * {@code KafkaConnect} that builds the sink's plugin into its image, with its metrics' ConfigMap; a
 * Debezium connector reads its passwords through Strimzi's config provider (the Role that lets it).
 */
final class StrimziResources {

    static final String STRIMZI_API = "kafka.strimzi.io/v1beta2";

    static final String CONNECT_SECRETS = "/mnt/nearline-secrets";

    static final int CONNECT_METRICS_PORT = 9404;

    private StrimziResources() {}

    static KubernetesDeploy.Resource kafkaConnector(
            Descriptor d, String connectCluster, Map<String, String> config, KubernetesDeploy.JobState state) {
        Map<String, String> rest = new LinkedHashMap<>(config);
        String connectorClass = rest.remove("connector.class");
        rest.remove("tasks.max");
        rest.remove("name");
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("class", connectorClass);
        spec.put("tasksMax", d.parallelism());
        spec.put("state", state == KubernetesDeploy.JobState.RUNNING ? "running" : "stopped");
        spec.put("config", new TreeMap<>(rest));
        return new KubernetesDeploy.Resource(
                "kafkaconnector-" + d.name() + ".yaml",
                "KafkaConnector (Strimzi 0.4x) on KafkaConnect " + connectCluster,
                KubernetesYaml.resource(
                        STRIMZI_API,
                        "KafkaConnector",
                        d.name(),
                        d,
                        KubernetesYaml.map("strimzi.io/cluster", connectCluster),
                        spec));
    }

    /**
     * The Connect cluster the cache sink runs on, built by Strimzi with the sink's plugin (the zip at
     * {@code kubernetes.plugin-url}, checked against the local build's SHA-512) and Debezium's
     * connectors, the Secret mounted for the connectors' references, and the worker's exporter.
     */
    static KubernetesDeploy.Resource kafkaConnect(
            Descriptor d, ClusterFile c, String connectCluster, PodSecrets secrets, Path home) {
        String image = KubernetesYaml.required(
                d,
                "image",
                "the image Strimzi builds the Connect worker into, with the plugins "
                        + "(e.g. registry.example.com/nearline-connect:1)");
        String pluginUrl = KubernetesYaml.required(
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
        List<Object> plugins = connectPlugins(pluginUrl, KubernetesYaml.sha512(d.artifactPath(home)));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("replicas", 1);
        spec.put("bootstrapServers", c.kafkaBootstrapServers());
        kafkaLogin(c, secrets, spec);
        spec.put("config", config);
        spec.put(
                "build",
                KubernetesYaml.map("output", KubernetesYaml.map("type", "docker", "image", image), "plugins", plugins));
        spec.put(
                "metricsConfig",
                KubernetesYaml.map(
                        "type",
                        "jmxPrometheusExporter",
                        "valueFrom",
                        KubernetesYaml.map(
                                "configMapKeyRef",
                                KubernetesYaml.map("name", connectCluster + "-metrics", "key", "jmx-exporter.yaml"))));
        spec.put("template", connectTemplate(secrets));
        return new KubernetesDeploy.Resource(
                "kafkaconnect-" + connectCluster + ".yaml",
                "KafkaConnect (Strimzi 0.4x): the worker, with the sink's and Debezium's plugins",
                KubernetesYaml.annotated(
                        KubernetesYaml.resource(STRIMZI_API, "KafkaConnect", connectCluster, d, Map.of(), spec),
                        KubernetesYaml.map("strimzi.io/use-connector-resources", "true")));
    }

    /** The plugins Strimzi builds into the worker's image: the sink's zip (checked by its SHA-512) and Debezium's connectors. */
    private static List<Object> connectPlugins(String pluginUrl, String sinkSha512) {
        List<Object> plugins = new ArrayList<>();
        plugins.add(KubernetesYaml.map(
                "name",
                "nearline-cache-sink",
                "artifacts",
                List.of(KubernetesYaml.map("type", "zip", "url", pluginUrl, "sha512sum", sinkSha512))));
        for (String kind : List.of("postgres", "mysql")) {
            plugins.add(KubernetesYaml.map(
                    "name",
                    "debezium-" + kind,
                    "artifacts",
                    List.of(KubernetesYaml.map(
                            "type",
                            "maven",
                            "group",
                            "io.debezium",
                            "artifact",
                            "debezium-connector-" + kind,
                            "version",
                            KubernetesYaml.VERSIONS.getProperty("debezium")))));
        }
        return plugins;
    }

    /** The worker's pods: where Prometheus scrapes them, and the Secret's keys as files where there are any. */
    private static Map<String, Object> connectTemplate(PodSecrets secrets) {
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("metadata", KubernetesYaml.map("annotations", KubernetesYaml.scrapeAnnotations(CONNECT_METRICS_PORT)));
        Map<String, Object> template = new LinkedHashMap<>();
        template.put("pod", pod);
        if (!secrets.files.isEmpty()) {
            pod.put("volumes", List.of(secrets.volume()));
            template.put("connectContainer", KubernetesYaml.map("volumeMounts", List.of(secrets.volumeMount())));
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
                    KubernetesYaml.map(
                            "type",
                            mechanism,
                            "username",
                            c.kafkaSecurity().getOrDefault("sasl.username", ""),
                            "passwordSecret",
                            KubernetesYaml.map(
                                    "secretName",
                                    secrets.name,
                                    "password",
                                    secrets.key("kafka.sasl.password", "the Kafka user's password"))));
        }
        if (protocol.contains("ssl")) {
            spec.put(
                    "tls",
                    KubernetesYaml.map(
                            "trustedCertificates",
                            List.of(KubernetesYaml.map(
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
    static List<KubernetesDeploy.Resource> secretReader(Descriptor d, String connectCluster, String secretName) {
        String role = d.name() + "-secret-reader";
        Map<String, Object> roleBody =
                KubernetesYaml.resource("rbac.authorization.k8s.io/v1", "Role", role, d, Map.of(), null);
        roleBody.put(
                "rules",
                List.of(KubernetesYaml.map(
                        "apiGroups", List.of(""),
                        "resources", List.of("secrets"),
                        "resourceNames", List.of(secretName),
                        "verbs", List.of("get"))));
        Map<String, Object> binding =
                KubernetesYaml.resource("rbac.authorization.k8s.io/v1", "RoleBinding", role, d, Map.of(), null);
        binding.put(
                "subjects",
                List.of(KubernetesYaml.map(
                        "kind",
                        "ServiceAccount",
                        "name",
                        connectCluster + "-connect",
                        "namespace",
                        d.kubernetes().get("namespace"))));
        binding.put(
                "roleRef", KubernetesYaml.map("kind", "Role", "name", role, "apiGroup", "rbac.authorization.k8s.io"));
        return List.of(
                new KubernetesDeploy.Resource(
                        "role-" + role + ".yaml", "Role: the Connect worker may read " + secretName, roleBody),
                new KubernetesDeploy.Resource(
                        "rolebinding-" + role + ".yaml", "RoleBinding: to " + connectCluster + "-connect", binding));
    }

    /** The rules of the worker's JMX exporter (jobs/connect-conf/jmx-exporter.yaml), as Strimzi reads them. */
    static KubernetesDeploy.Resource connectMetrics(String connectCluster, Descriptor d, Path home) {
        String rules;
        try {
            rules = Files.readString(home.resolve("jobs/connect-conf/jmx-exporter.yaml"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Object> body =
                KubernetesYaml.resource("v1", "ConfigMap", connectCluster + "-metrics", d, Map.of(), null);
        body.put("data", KubernetesYaml.map("jmx-exporter.yaml", rules));
        return new KubernetesDeploy.Resource(
                "configmap-" + connectCluster + "-metrics.yaml", "ConfigMap: the worker's exporter rules", body);
    }
}
