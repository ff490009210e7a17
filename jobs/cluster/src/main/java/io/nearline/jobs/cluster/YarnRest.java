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
package io.nearline.jobs.cluster;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A YARN cluster as a client sees it: its ResourceManager's REST API (nodes, applications, kill), a
 * NodeManager's (containers), and the Hadoop client's jars ({@code local-cluster/yarn-cluster/target/lib}).
 */
public final class YarnRest {

    public static final int RM_PORT = 8032;

    public static final int WEB_PORT = 8088;

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private YarnRest() {}

    /** The Hadoop client's jars (YARN's and HDFS's), as the build leaves them. */
    public static Path lib(Path home) {
        return home.resolve("local-cluster/yarn-cluster/target/lib");
    }

    /**
     * A YARN application: id, name, state, type, where its master listens (host:port), and how it
     * ended ({@code finalStatus}: UNDEFINED while it runs) with YARN's own words on why.
     */
    public record App(
            String id,
            String name,
            String state,
            String type,
            String amRpcAddress,
            String finalStatus,
            String diagnostics) {}

    public static int runningNodes(String web) {
        return (int) nodes(web).values().stream().filter("RUNNING"::equals).count();
    }

    /** The NodeManagers the ResourceManager knows, by host, with their state (RUNNING, LOST...); none if unreachable. */
    public static Map<String, String> nodes(String web) {
        Map<String, String> out = new TreeMap<>();
        try {
            for (Element n : elements(
                    get(web, "/ws/v1/cluster/nodes?states=NEW,RUNNING,UNHEALTHY,LOST,SHUTDOWN,DECOMMISSIONED"),
                    "node")) {
                // a host seen twice (a node back on a new port, its old entry LOST): the running one counts
                out.merge(text(n, "nodeHostName"), text(n, "state"), (a, b) -> a.equals("RUNNING") ? a : b);
            }
        } catch (ClusterException e) {
            // unreachable: no nodes to tell of
        }
        return out;
    }

    /** The web addresses of the RUNNING NodeManagers (http://host:port), by host. */
    public static Map<String, String> nodeWebs(String web) {
        Map<String, String> out = new TreeMap<>();
        for (Element n : elements(get(web, "/ws/v1/cluster/nodes?states=RUNNING"), "node")) {
            out.put(text(n, "nodeHostName"), "http://" + text(n, "nodeHTTPAddress"));
        }
        return out;
    }

    /**
     * The ids of the containers running on a node, as its NodeManager reports them; empty when it does
     * not answer within {@code timeout} (a node cut off or frozen).
     */
    public static Optional<List<String>> runningContainers(String nodeWeb, Duration timeout) {
        try {
            String xml = send(
                    nodeWeb,
                    "/ws/v1/node/containers",
                    HttpRequest.newBuilder().header("Accept", "application/xml").GET(),
                    timeout);
            return Optional.of(elements(xml, "container").stream()
                    .filter(c -> text(c, "state").equals("RUNNING"))
                    .map(c -> text(c, "id"))
                    .toList());
        } catch (ClusterException e) {
            return Optional.empty();
        }
    }

    /** The application a container belongs to: container_[e1_]CLUSTER_APP_ATTEMPT_N is application_CLUSTER_APP. */
    public static String applicationOf(String containerId) {
        String[] parts =
                containerId.replaceFirst("^container_e\\d+_", "container_").split("_");
        return "application_" + parts[1] + "_" + parts[2];
    }

    public static List<App> apps(String web) {
        List<App> out = new ArrayList<>();
        for (Element app : elements(get(web, "/ws/v1/cluster/apps"), "app")) {
            out.add(new App(
                    text(app, "id"),
                    text(app, "name"),
                    text(app, "state"),
                    text(app, "applicationType"),
                    text(app, "amRPCAddress"),
                    text(app, "finalStatus"),
                    text(app, "diagnostics")));
        }
        return out;
    }

    public static App app(String web, String id) {
        if (!id.matches("application_\\d+_\\d+")) {
            throw new ClusterException("'" + id + "' is not a YARN application id (application_<cluster>_<n>)");
        }
        // from the list: the ResourceManager answers 500 with no body for an id it does not know
        return apps(web).stream()
                .filter(a -> a.id().equals(id))
                .findFirst()
                .orElseThrow(() -> new ClusterException(
                        "no application " + id + " on the YARN cluster at " + web + " (see 'bin/nearline jobs list')"));
    }

    /** When YARN started each attempt of an application (epoch ms, its own clock): a second is a new application master. */
    public static List<Long> attemptStarts(String web, String id) {
        List<Long> out = new ArrayList<>();
        for (Element a : elements(get(web, "/ws/v1/cluster/apps/" + id + "/appattempts"), "appAttempt")) {
            out.add(Long.parseLong(text(a, "startTime")));
        }
        return out;
    }

    /**
     * A container's state as its NodeManager reports it (RUNNING, COMPLETE, ...) and its exit code, or
     * null when the NodeManager does not answer: {@code nodeWeb} is the node's web address.
     */
    public static String containerState(String nodeWeb, String containerId) {
        try {
            List<Element> c = elements(get(nodeWeb, "/ws/v1/node/containers/" + containerId), "container");
            return c.isEmpty() ? null : text(c.get(0), "state") + " (exit " + text(c.get(0), "exitCode") + ")";
        } catch (ClusterException e) {
            return null;
        }
    }

    /** Kills an application and waits until YARN says it is gone. */
    public static void kill(String web, String id) {
        app(web, id);
        send(
                web,
                "/ws/v1/cluster/apps/" + id + "/state",
                HttpRequest.newBuilder()
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString("{\"state\":\"KILLED\"}")));
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (System.nanoTime() < deadline) {
            String state = app(web, id).state();
            if (state.equals("KILLED") || state.equals("FINISHED") || state.equals("FAILED")) {
                return;
            }
            Daemons.sleep(300);
        }
        throw ClusterException.failed(id + " was not killed within a minute");
    }

    private static String get(String web, String path) {
        return send(
                web,
                path,
                HttpRequest.newBuilder().header("Accept", "application/xml").GET());
    }

    private static String send(String web, String path, HttpRequest.Builder request) {
        return send(web, path, request, Duration.ofSeconds(30));
    }

    private static String send(String web, String path, HttpRequest.Builder request, Duration timeout) {
        try {
            HttpResponse<String> r = HTTP.send(
                    request.uri(URI.create(web + path)).timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 404 || r.statusCode() == 400) {
                // an application id YARN does not know (or cannot be one of its own) is the user's mistake
                throw new ClusterException("not found on the YARN cluster at " + web + ": " + path);
            }
            if (r.statusCode() >= 300) {
                throw ClusterException.failed("YARN answered " + r.statusCode() + " to " + path + ": " + r.body());
            }
            return r.body();
        } catch (IOException e) {
            throw new ClusterException("the YARN cluster at " + web + " is unreachable (" + e.getMessage()
                    + "): is it up? 'bin/nearline cluster status'");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted");
        }
    }

    private static List<Element> elements(String xml, String tag) {
        try {
            NodeList nodes = DocumentBuilderFactory.newInstance()
                    .newDocumentBuilder()
                    .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)))
                    .getElementsByTagName(tag);
            List<Element> out = new ArrayList<>();
            for (int i = 0; i < nodes.getLength(); i++) {
                out.add((Element) nodes.item(i));
            }
            return out;
        } catch (Exception e) {
            throw ClusterException.failed("YARN's answer does not parse: " + e.getMessage());
        }
    }

    private static String text(Element e, String tag) {
        NodeList n = e.getElementsByTagName(tag);
        return n.getLength() == 0 ? "" : n.item(0).getTextContent();
    }
}
