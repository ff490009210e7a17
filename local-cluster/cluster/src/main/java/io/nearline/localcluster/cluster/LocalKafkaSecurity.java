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
package io.nearline.localcluster.cluster;

import io.nearline.common.config.KafkaSecurity;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.kit.processes.Home;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code cluster up --kafka-security}: what a secured local broker needs, made once in
 * {@code DIR/kafka-security/} and kept across restarts. With TLS, a self-signed certificate for the
 * cluster's address (made by the JDK's keytool) and a truststore holding it; with SASL, the user
 * {@value #USER} whose password is in {@code DIR/kafka.password}. The cluster file then carries the
 * client side ({@link #clusterFileKeys}), passwords by reference to those files.
 */
final class LocalKafkaSecurity {

    /** The user every job and tool of the local cluster connects as. */
    static final String USER = "nearline";

    private LocalKafkaSecurity() {}

    /** The security.protocol {@code --kafka-security} names, or a {@link ClusterException} saying which exist. */
    static KafkaSecurity.Protocol protocol(String option) {
        try {
            return KafkaSecurity.PROTOCOL.type().parse(option);
        } catch (IllegalArgumentException e) {
            throw new ClusterException(
                    "--kafka-security must be plaintext, ssl, sasl-plaintext or sasl-ssl, got " + option);
        }
    }

    /** Makes (or finds) the broker's side for {@code protocol} on {@code host}; returns its file. */
    static Path brokerFile(Path dir, String host, KafkaSecurity.Protocol protocol) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("kafka-security"));
        Path keystore = folder.resolve("broker.p12");
        Path truststore = folder.resolve("truststore.p12");
        boolean tls = protocol.tls();
        String storePassword = secret(folder.resolve("stores.password"));
        if (tls && !Files.exists(truststore)) {
            certificate(folder, host, keystore, truststore, storePassword);
        }
        // the form the broker reads (BrokerSecurity in local-cluster/kafka): its listener, stores, users
        Properties broker = new Properties();
        broker.setProperty("protocol", protocol.name());
        if (tls) {
            broker.setProperty("keystore", keystore.toString());
            broker.setProperty("keystore.password", storePassword);
            broker.setProperty("truststore", truststore.toString());
            broker.setProperty("truststore.password", storePassword);
        }
        broker.setProperty("user.broker", secret(folder.resolve("broker.password")));
        broker.setProperty("user." + USER, secret(dir.resolve("kafka.password")));
        Path file = folder.resolve("broker.properties");
        try (Writer w = Files.newBufferedWriter(file)) {
            broker.store(w, "the local cluster's broker: listener protocol, TLS stores, SASL users");
        }
        ownerOnly(file);
        return file;
    }

    /** The cluster file's kafka: keys for the clients: protocol, user, truststore; secrets by reference. */
    static Map<String, String> clusterFileKeys(Path dir, KafkaSecurity.Protocol protocol) {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("security.protocol", KafkaSecurity.PROTOCOL.type().format(protocol));
        if (protocol.sasl()) {
            keys.put("sasl.mechanism", "plain");
            keys.put("sasl.username", USER);
            keys.put("sasl.password", "file:" + dir.resolve("kafka.password"));
        }
        if (protocol.tls()) {
            Path folder = dir.resolve("kafka-security");
            keys.put("ssl.truststore", folder.resolve("truststore.p12").toString());
            keys.put("ssl.truststore-password", "file:" + folder.resolve("stores.password"));
        }
        return keys;
    }

    /** A random password in {@code file}, made once; only its owner reads it. */
    private static String secret(Path file) throws IOException {
        if (!Files.exists(file)) {
            Files.writeString(file, HexFormat.of().formatHex(new SecureRandom().generateSeed(12)));
            ownerOnly(file);
        }
        return Files.readString(file, StandardCharsets.UTF_8).strip();
    }

    private static void ownerOnly(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    /** A self-signed certificate for {@code host} (and loopback), valid ten years, and a truststore of it. */
    private static void certificate(Path folder, String host, Path keystore, Path truststore, String password) {
        Path cert = folder.resolve("broker.crt");
        keytool(List.of(
                "-genkeypair",
                "-alias",
                "broker",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "3650",
                "-dname",
                "CN=nearline-local-kafka",
                "-ext",
                subjectAlternativeNames(host),
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                password,
                "-keypass",
                password));
        keytool(List.of(
                "-exportcert",
                "-alias",
                "broker",
                "-rfc",
                "-file",
                cert.toString(),
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                password));
        keytool(List.of(
                "-importcert",
                "-noprompt",
                "-alias",
                "nearline-local-kafka",
                "-file",
                cert.toString(),
                "-storetype",
                "PKCS12",
                "-keystore",
                truststore.toString(),
                "-storepass",
                password));
    }

    /**
     * The names a client may check the certificate against: the address, and the names a lookup of it
     * can give. Kafka 2.4's client (Samza's) checks the name it looks the address up to; inside the
     * cluster's network namespace that is this machine's host name (the address is local there).
     */
    private static String subjectAlternativeNames(String host) {
        Set<String> names = new LinkedHashSet<>(List.of("localhost"));
        try {
            names.add(InetAddress.getLocalHost().getHostName());
            names.add(InetAddress.getByName(host).getCanonicalHostName());
        } catch (UnknownHostException e) {
            // the addresses alone then
        }
        names.remove(host);
        StringBuilder san = new StringBuilder("SAN=ip:" + host + ",ip:127.0.0.1");
        names.forEach(name -> san.append(",dns:").append(name));
        return san.toString();
    }

    private static void keytool(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(Home.java()).resolveSibling("keytool").toString());
        command.addAll(args);
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new ClusterException("keytool " + args.get(0) + " failed: " + out.strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while making the broker's certificate");
        }
    }
}
