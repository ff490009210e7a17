package io.nearline.localcluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Where the Nearline checkout is, and how the front door starts the engines' JVMs. */
final class Home {

    private Home() {
    }

    /** The checkout: {@code -Dnearline.home} (bin/nearline sets it), else found from this jar's location. */
    static Path dir() {
        String home = System.getProperty("nearline.home");
        if (home != null) {
            return Path.of(home);
        }
        try {
            Path jar = Path.of(Home.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return jar.getParent().getParent().getParent().getParent(); // local-cluster/cli/target/x.jar
        } catch (Exception e) {
            throw new IllegalStateException("cannot tell where Nearline is; set -Dnearline.home", e);
        }
    }

    /** The runnable jar of an engine's local runner (flink or samza). */
    static Path engineJar(String engine) {
        return dir().resolve("cache-updater/" + engine + "/target/nearline-cache-updater-" + engine + ".jar");
    }

    /** The broker as its own process, for the Samza side. */
    static Path kafkaJar() {
        return dir().resolve("local-cluster/kafka/target/nearline-kafka.jar");
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs {@code command} in the foreground with this terminal, and returns its exit code. */
    static int run(List<String> command, Path jar) throws IOException, InterruptedException {
        if (!Files.isRegularFile(jar)) {
            System.err.println(jar + " is missing: build with ./mvnw package -DskipTests (bin/nearline does it for you)");
            return 2;
        }
        Process process = new ProcessBuilder(command).inheritIO().start();
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
        return process.waitFor();
    }
}
