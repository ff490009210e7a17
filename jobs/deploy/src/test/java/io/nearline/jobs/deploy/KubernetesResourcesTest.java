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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import io.nearline.common.testkit.Printed;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * What {@code deploy --target kubernetes} writes: every resource valid against the operators' published
 * CRDs (with unknown fields refused, as {@code kubectl apply} with strict field validation does), the
 * shipped descriptors' resources as their reviewed golden files, and a job's arguments, Flink
 * configuration and connector configuration the ones the other targets submit.
 */
class KubernetesResourcesTest {

    private static final Path SHIPPED = Path.of("../../jobs/deploy");
    private static final Path GOLDEN = Path.of("src/test/resources/kubernetes/golden");
    private static final Path CRDS = Path.of("src/test/resources/kubernetes/crds");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The Kubernetes descriptors shipped in jobs/deploy. */
    private static final List<String> DESCRIPTORS = List.of(
            "cache-updater-flink-k8s.yaml",
            "tracking-join-flink-k8s.yaml",
            "cache-updater-connect-k8s.yaml",
            "debezium-postgres-k8s.yaml");

    /** apiVersion + kind -> its schema, strict. */
    private static final Map<String, JsonSchema> SCHEMAS = new HashMap<>();

    @TempDir
    static Path home;

    @TempDir
    static Path clusterDir;

    private static ClusterFile cluster;

    @BeforeAll
    static void setUp() throws IOException {
        // the tools' home as deploy reads it: the shipped Flink and Connect settings, and build outputs
        // whose bytes are fixed (the plugin's SHA-512 goes into the golden KafkaConnect)
        for (String conf : List.of("jobs/flink-conf/config.yaml", "jobs/connect-conf/jmx-exporter.yaml")) {
            Files.createDirectories(home.resolve(conf).getParent());
            Files.copy(Path.of("../..").resolve(conf), home.resolve(conf));
        }
        Path dist = Files.createDirectories(home.resolve("jobs/target/dist"));
        Files.writeString(dist.resolve("nearline-cache-sink-connect.zip"), "the plugin's bytes, fixed for the test");
        Files.writeString(dist.resolve("nearline-cache-updater-flink.jar"), "the job's jar");
        Files.writeString(dist.resolve("nearline-tracking-join-flink.jar"), "the job's jar");
        Files.writeString(
                clusterDir.resolve(ClusterFile.NAME),
                String.join(
                        "\n",
                        "# a cluster file as 'cluster init' writes it for clusters on Kubernetes",
                        "kafka:",
                        "  bootstrap-servers: nearline-kafka-bootstrap.kafka:9092",
                        "store: couchbase",
                        "couchbase:",
                        "  connection-string: couchbase://couchbase-srv.couchbase",
                        "  bucket: cache",
                        "  username: nearline",
                        "  password: file:/etc/nearline/couchbase.password",
                        "flink:",
                        "  rest-url: http://nearline-session-rest.nearline:8081",
                        "  state-dir: s3://nearline-state/flink",
                        "postgres:",
                        "  host: orders-db.databases",
                        "  port: 5432",
                        "  database: orders",
                        "  user: debezium",
                        "  jdbc-url: jdbc:postgresql://orders-db.databases:5432/orders",
                        "  tables: public.items",
                        ""));
        cluster = ClusterFile.read(clusterDir);
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4);
        try (Stream<Path> crds = Files.list(CRDS)) {
            for (Path crd : crds.filter(p -> p.toString().matches(".*\\.ya?ml")).toList()) {
                JsonNode def = JSON.valueToTree(yaml(Files.readString(crd, StandardCharsets.UTF_8)));
                String group = def.path("spec").path("group").asText();
                String kind = def.path("spec").path("names").path("kind").asText();
                for (JsonNode version : def.path("spec").path("versions")) {
                    JsonNode schema =
                            version.path("schema").path("openAPIV3Schema").deepCopy();
                    strict(schema);
                    // every object Kubernetes stores has these, whether the CRD's schema lists them or not
                    ObjectNode root = (ObjectNode) schema.path("properties");
                    root.putObject("apiVersion").put("type", "string");
                    root.putObject("kind").put("type", "string");
                    root.putObject("metadata").put("type", "object");
                    SCHEMAS.put(group + "/" + version.path("name").asText() + " " + kind, factory.getSchema(schema));
                }
            }
        }
    }

    private static Object yaml(String text) {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(16 * 1024 * 1024); // the FlinkDeployment's CRD holds a whole Pod's schema
        return new Yaml(new SafeConstructor(options)).load(text);
    }

    /**
     * A structural schema prunes unknown fields; {@code kubectl apply} (strict field validation) refuses
     * them. So every object with properties takes no others, unless it says it keeps unknown fields. The
     * branches of {@code oneOf}, {@code anyOf}, {@code allOf} and {@code not} only constrain values that
     * the structural schema already allows (Kubernetes' rule), so they are left as they are.
     */
    private static void strict(JsonNode node) {
        if (node instanceof ObjectNode o) {
            if (o.has("properties")
                    && !o.has("additionalProperties")
                    && !o.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
                o.put("additionalProperties", false);
            }
            o.properties().forEach(e -> {
                if (!List.of("oneOf", "anyOf", "allOf", "not").contains(e.getKey())) {
                    strict(e.getValue());
                }
            });
        } else if (node instanceof ArrayNode a) {
            a.forEach(KubernetesResourcesTest::strict);
        }
    }

    private static List<KubernetesDeploy.Resource> generate(Descriptor d) {
        return generate(d, KubernetesDeploy.JobState.RUNNING);
    }

    private static List<KubernetesDeploy.Resource> generate(Descriptor d, KubernetesDeploy.JobState state) {
        return KubernetesDeploy.resources(new KubernetesDeploy.Request(d, cluster, Map.of(), null, state, home));
    }

    /** The schema's complaints about a resource, empty when it is valid; a kind with no CRD (Secret, ConfigMap) has none. */
    private static List<String> problems(Map<String, Object> body) throws IOException {
        JsonSchema schema = SCHEMAS.get(body.get("apiVersion") + " " + body.get("kind"));
        if (schema == null) {
            return List.of();
        }
        return schema.validate(JSON.valueToTree(body)).stream()
                .map(Object::toString)
                .sorted()
                .toList();
    }

    private static Descriptor shipped(String name) {
        return Descriptor.read(SHIPPED.resolve(name));
    }

    @Test
    void theOperatorsSchemasAreLoaded() {
        for (String resource : List.of(
                "flink.apache.org/v1beta1 FlinkDeployment",
                "flink.apache.org/v1beta1 FlinkSessionJob",
                "kafka.strimzi.io/v1beta2 KafkaConnect",
                "kafka.strimzi.io/v1beta2 KafkaConnector")) {
            assertTrue(SCHEMAS.containsKey(resource), resource + " not among " + new TreeSet<>(SCHEMAS.keySet()));
        }
    }

    @Test
    void everyResourceOfEveryShippedDescriptorIsValidAgainstItsOperatorsSchema() throws IOException {
        int checked = 0;
        for (String name : DESCRIPTORS) {
            for (KubernetesDeploy.Resource r : generate(shipped(name))) {
                assertEquals(List.of(), problems(r.body()), name + ": " + r.file());
                if (SCHEMAS.containsKey(
                        r.body().get("apiVersion") + " " + r.body().get("kind"))) {
                    checked++;
                }
            }
        }
        assertTrue(checked >= 5, "resources checked against a CRD: " + checked);
    }

    @Test
    void aSessionJobAndAStoppedJobAreValidToo() throws IOException {
        Descriptor session = descriptor(
                "cache-updater-flink-k8s.yaml",
                "  namespace: nearline",
                "  namespace: nearline\n  session: nearline-session\n"
                        + "  jar-uri: https://downloads.example.com/nearline/nearline-cache-updater-flink.jar");
        List<KubernetesDeploy.Resource> resources = generate(session);
        Map<String, Object> job = resources.get(0).body();
        assertEquals("FlinkSessionJob", job.get("kind"));
        assertEquals(List.of(), problems(job));

        for (String name : List.of("cache-updater-flink-k8s.yaml", "cache-updater-connect-k8s.yaml")) {
            Map<String, Object> stopped = generate(shipped(name), KubernetesDeploy.JobState.SUSPENDED)
                    .get(0)
                    .body();
            assertEquals(List.of(), problems(stopped), name);
            String state = String.valueOf(field(stopped, name.contains("connect") ? "spec.state" : "spec.job.state"));
            assertEquals(name.contains("connect") ? "stopped" : "suspended", state, name);
        }
    }

    /** Negative control: the schemas refuse a misspelt field, a wrong type and a value off their list. */
    @Test
    void aPlantedInvalidFieldFails() throws IOException {
        Map<String, Object> deployment =
                generate(shipped("cache-updater-flink-k8s.yaml")).get(0).body();
        assertFalse(
                problems(edit(deployment, m -> job(m).put("upgradeMod", "savepoint")))
                        .isEmpty(),
                "misspelt");
        assertFalse(
                problems(edit(deployment, m -> job(m).put("parallelism", "two")))
                        .isEmpty(),
                "wrong type");
        assertFalse(
                problems(edit(deployment, m -> job(m).put("upgradeMode", "sometimes")))
                        .isEmpty(),
                "off the list");
        assertFalse(
                problems(edit(deployment, m -> spec(m).put("flinkVersion", "v0_9")))
                        .isEmpty(),
                "unknown version");

        Map<String, Object> connector =
                generate(shipped("cache-updater-connect-k8s.yaml")).get(0).body();
        assertFalse(problems(edit(connector, m -> spec(m).put("tasksMax", "2"))).isEmpty(), "tasksMax a string");
        assertFalse(problems(edit(connector, m -> spec(m).put("clas", "x"))).isEmpty(), "misspelt");
        Map<String, Object> connect =
                generate(shipped("cache-updater-connect-k8s.yaml")).get(1).body();
        assertEquals("KafkaConnect", connect.get("kind"));
        assertFalse(problems(edit(connect, m -> spec(m).put("replica", 1))).isEmpty(), "misspelt");
    }

    /** The files as reviewed once; a change shows as a diff ({@code -Dnearline.updateGolden=true} writes them). */
    @Test
    void theShippedDescriptorsWriteTheirGoldenFiles() throws IOException {
        boolean update = Boolean.getBoolean("nearline.updateGolden");
        List<String> differ = new ArrayList<>();
        for (String name : DESCRIPTORS) {
            Descriptor d = shipped(name);
            Path golden = GOLDEN.resolve(name.replace(".yaml", ""));
            Map<String, String> written = new LinkedHashMap<>();
            for (KubernetesDeploy.Resource r : generate(d)) {
                written.put(r.file(), KubernetesDeploy.render(r, d));
            }
            if (update) {
                Files.createDirectories(golden);
                try (Stream<Path> old = Files.walk(golden)) {
                    for (Path f : old.filter(Files::isRegularFile).toList()) {
                        Files.delete(f);
                    }
                }
                for (Map.Entry<String, String> e : written.entrySet()) {
                    Files.createDirectories(golden.resolve(e.getKey()).getParent());
                    Files.writeString(golden.resolve(e.getKey()), e.getValue(), StandardCharsets.UTF_8);
                }
                continue;
            }
            try (Stream<Path> files = Files.walk(golden)) {
                assertEquals(
                        new TreeSet<>(written.keySet()),
                        files.filter(Files::isRegularFile)
                                .map(f -> golden.relativize(f).toString())
                                .collect(Collectors.toCollection(TreeSet::new)),
                        name + ": the files written");
            }
            for (Map.Entry<String, String> e : written.entrySet()) {
                if (!Files.readString(golden.resolve(e.getKey()), StandardCharsets.UTF_8)
                        .equals(e.getValue())) {
                    differ.add(golden.resolve(e.getKey()).toString());
                }
            }
        }
        assertEquals(List.of(), differ, "differ from their golden files (review, then -Dnearline.updateGolden=true)");
    }

    /** The FlinkDeployment's arguments and configuration are the session target's, but for the secrets' paths. */
    @Test
    void aFlinkDeploymentRunsTheJobAsTheOtherTargetsSubmitIt() {
        Descriptor d = shipped("cache-updater-flink-k8s.yaml");
        Map<String, Object> spec = spec(generate(d).get(0).body());
        String previous = System.getProperty("nearline.home");
        System.setProperty("nearline.home", home.toString());
        List<String> command;
        try {
            command = FlinkDeploy.plan(d.withTarget("flink-session"), cluster, Map.of(), null)
                    .command();
        } finally {
            if (previous == null) {
                System.clearProperty("nearline.home");
            } else {
                System.setProperty("nearline.home", previous);
            }
        }
        List<String> submitted = command.subList(command.indexOf("--set"), command.size());
        @SuppressWarnings("unchecked")
        List<String> args = (List<String>) ((Map<String, Object>) spec.get("job")).get("args");
        assertEquals(submitted.size(), args.size(), args.toString());
        for (int i = 0; i < args.size(); i++) {
            String mine = args.get(i);
            String theirs = submitted.get(i);
            if (mine.startsWith("couchbase.password=")) { // the Secret's file in the pod, for the file named
                assertEquals("couchbase.password=file:/etc/nearline/couchbase.password", theirs);
                assertEquals(
                        "couchbase.password=file:" + FlinkOperatorResources.FLINK_SECRETS + "/couchbase.password",
                        mine);
            } else {
                assertEquals(theirs, mine);
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, String> conf = (Map<String, String>) spec.get("flinkConfiguration");
        FlinkDeploy.flinkConfiguration(d).forEach((k, v) -> {
            assertTrue(command.contains("-D" + k + "=" + v), "the session deploy lacks -D" + k);
            assertEquals(v, conf.get(k), k);
        });
        assertEquals("s3://nearline-state/flink/savepoints", conf.get("state.savepoints.dir"));
        assertEquals("kubernetes", conf.get("high-availability.type"));
    }

    /** A KafkaConnector's class, tasks and config are what the Connect target posts, but for the password. */
    @Test
    void aKafkaConnectorCarriesTheConfigTheRestTargetPosts() {
        for (String name : List.of("cache-updater-connect-k8s.yaml", "debezium-postgres-k8s.yaml")) {
            Descriptor d = shipped(name);
            Map<String, String> posted = new LinkedHashMap<>(ConnectDeploy.config(d, cluster, Map.of()));
            Map<String, Object> spec = spec(generate(d).get(0).body());
            assertEquals(posted.remove("connector.class"), spec.get("class"), name);
            assertEquals(Integer.parseInt(posted.remove("tasks.max")), spec.get("tasksMax"), name);
            posted.remove("name");
            @SuppressWarnings("unchecked")
            Map<String, String> config = (Map<String, String>) spec.get("config");
            assertEquals(posted.keySet(), config.keySet(), name);
            posted.forEach((k, v) -> {
                if (k.endsWith("password")) { // a file of the mounted Secret, or its key through the Kubernetes API
                    assertTrue(
                            config.get(k).startsWith("file:" + StrimziResources.CONNECT_SECRETS + "/")
                                    || config.get(k).startsWith("${secrets:nearline/" + d.name() + "-secrets:"),
                            k + "=" + config.get(k));
                } else {
                    assertEquals(v, config.get(k), name + ": " + k);
                }
            });
        }
    }

    /**
     * Written twice into one directory (an upgrade), the resources that {@code kubectl apply -f DIR} reads
     * (the directory's own files, not its subfolders) hold no Secret: the template, with its placeholders,
     * sits in {@code secret-templates/}, so applying again never replaces the live Secret. A template an
     * older version left among the applied files is warned about.
     */
    @Test
    void writingAgainNeverPutsASecretAmongTheAppliedFiles(@TempDir Path out) throws IOException {
        Descriptor d = shipped("cache-updater-flink-k8s.yaml");
        for (int round = 0; round < 2; round++) {
            Printed written = Printed.by(() -> KubernetesDeploy.write(generate(d), d, out, false));
            assertEquals(0, written.exit(), written.out());
            assertFalse(written.out().contains("warning"), written.out());
        }
        List<String> applied = new ArrayList<>();
        try (Stream<Path> files = Files.list(out)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                applied.add(f.getFileName() + ": " + kindOf(Files.readString(f)));
            }
        }
        assertTrue(applied.stream().noneMatch(a -> a.endsWith(": Secret")), applied.toString());
        assertEquals(1, applied.size(), applied.toString());
        Path template = out.resolve("secret-templates/secret-nearline-cache-updater-secrets.yaml");
        assertEquals("Secret", kindOf(Files.readString(template)));

        Files.copy(template, out.resolve(template.getFileName())); // where an older version wrote it
        Printed again = Printed.by(() -> KubernetesDeploy.write(generate(d), d, out, false));
        assertTrue(again.out().contains("warning: " + out.resolve(template.getFileName())), again.out());
    }

    private static String kindOf(String yaml) {
        Map<String, Object> body = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
        return String.valueOf(body.get("kind"));
    }

    @Test
    void theSecretsTemplateListsEveryReferenceAndNoValue() {
        Map<String, Object> secret =
                generate(shipped("cache-updater-flink-k8s.yaml")).get(1).body();
        assertEquals("Secret", secret.get("kind"));
        assertEquals(
                Map.of("couchbase.password", "FILL IN: what /etc/nearline/couchbase.password holds"),
                secret.get("stringData"));
        List<KubernetesDeploy.Resource> debezium = generate(shipped("debezium-postgres-k8s.yaml"));
        Map<String, Object> db = debezium.get(debezium.size() - 1).body();
        assertEquals("Secret", db.get("kind"));
        @SuppressWarnings("unchecked")
        Map<String, String> data = (Map<String, String>) db.get("stringData");
        assertEquals(List.of("postgres.password"), List.copyOf(data.keySet()));
    }

    /** Bad input stops the deploy with one line (exit 2), before anything is written. */
    @Test
    void mistakesAreRefusedNamingTheKey() throws IOException {
        Descriptor noImage = descriptor(
                "cache-updater-flink-k8s.yaml",
                "  image: registry.example.com/nearline/cache-updater-flink:0.1.0",
                "  image: \"\"");
        assertTrue(refusal(() -> generate(noImage)).contains("kubernetes.image is required"));

        Descriptor inline = descriptor(
                "cache-updater-flink-k8s.yaml",
                "  write.threads: 4",
                "  write.threads: 4\n  couchbase.password: hunter2");
        String why = refusal(() -> generate(inline));
        assertTrue(why.contains("couchbase.password is written inline"), why);
        assertFalse(why.contains("hunter2"), "the refusal shows the secret: " + why);

        assertTrue(refusal(() -> descriptor("cache-updater-flink-k8s.yaml", "  namespace: nearline", "  namespce: x"))
                .contains("did you mean 'kubernetes.namespace'"));

        Descriptor samza = shipped("cache-updater-samza-yarn.yaml");
        assertTrue(refusal(() -> samza.withTarget("kubernetes")).contains("Samza has no released, maintained"));

        Descriptor badName = descriptor("tracking-join-flink-k8s.yaml", "name: nearline-tracking-join", "name: Join_1");
        assertTrue(refusal(() -> generate(badName)).contains("is not a Kubernetes name"));
    }

    private static String refusal(Executable action) {
        ClusterException e = assertThrows(ClusterException.class, action);
        assertEquals(2, e.exitCode());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }

    /** A shipped descriptor with one line replaced, written beside the test's cluster. */
    private static Descriptor descriptor(String name, String line, String replacement) throws IOException {
        String text = Files.readString(SHIPPED.resolve(name), StandardCharsets.UTF_8);
        assertTrue(text.contains(line), name + " lacks " + line);
        Path file = clusterDir.resolve("edited-" + name);
        Files.writeString(file, text.replace(line, replacement), StandardCharsets.UTF_8);
        return Descriptor.read(file);
    }

    // ---- editing a resource's body

    private static Map<String, Object> edit(Map<String, Object> body, Consumer<Map<String, Object>> change) {
        Map<String, Object> copy =
                JSON.convertValue(body, JSON.getTypeFactory().constructMapType(Map.class, String.class, Object.class));
        change.accept(copy);
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(Map<String, Object> body) {
        return (Map<String, Object>) body.get("spec");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> job(Map<String, Object> body) {
        return (Map<String, Object>) spec(body).get("job");
    }

    @SuppressWarnings("unchecked")
    private static Object field(Map<String, Object> body, String path) {
        Object at = body;
        for (Iterator<String> i = List.of(path.split("\\.")).iterator(); i.hasNext(); ) {
            at = ((Map<String, Object>) at).get(i.next());
        }
        return at;
    }
}
