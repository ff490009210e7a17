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
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/** How a resource is written: its kind, name and labels, annotations, the order of its keys, and the checks on names. */
final class KubernetesYaml {

    static final Properties VERSIONS = versions();

    private KubernetesYaml() {}

    /** A resource's body: its kind, its name and labels (in the descriptor's namespace), its spec (null: none). */
    static Map<String, Object> resource(
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
    static Map<String, Object> annotated(Map<String, Object> body, Map<String, ?> annotations) {
        ((Map<String, Object>) body.get("metadata")).put("annotations", annotations);
        return body;
    }

    static Map<String, String> scrapeAnnotations(int port) {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("prometheus.io/scrape", "true");
        a.put("prometheus.io/port", Integer.toString(port));
        a.put("prometheus.io/path", "/metrics");
        return a;
    }

    static String required(Descriptor d, String key, String what) {
        String v = d.kubernetes().get(key);
        if (v == null || v.isBlank()) {
            throw new ClusterException(
                    d.file() + ": kubernetes." + key + " is required for a Kubernetes deploy: " + what);
        }
        return v;
    }

    /** Kubernetes names: lower-case letters, digits, '-' and '.', starting and ending alphanumeric, up to 253. */
    static void checkName(Descriptor d, String key, String name) {
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

    static Yaml yaml() {
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
}
