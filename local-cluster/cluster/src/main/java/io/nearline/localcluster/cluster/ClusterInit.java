package io.nearline.localcluster.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code nearline cluster init}: a cluster file for clusters Nearline did not start, holding only
 * addresses (docs/clusters.md). Deploys, publishes, checks and dumps then work against them as they do
 * against a local cluster; {@code cluster check} probes each address first.
 */
@Command(
        name = "init",
        mixinStandardHelpOptions = true,
        description = {
            "Write DIR/cluster.yaml for clusters you run yourself: addresses only, no processes (docs/clusters.md).",
            "%nSecrets are given by reference (file:PATH or env:VAR), never in the file. Then "
                    + "'bin/nearline cluster check --cluster DIR' probes every address it names.%n"
        })
final class ClusterInit implements Callable<Integer> {

    @Mixin
    DirOption where;

    @Option(names = "--kafka", required = true, paramLabel = "SERVERS", description = "Kafka bootstrap servers.")
    String kafka;

    @Option(names = "--flink-rest", paramLabel = "URL", description = "A Flink session cluster's REST URL.")
    String flinkRest;

    @Option(
            names = "--flink-state",
            paramLabel = "URI",
            description = "Where Flink's checkpoints, savepoints and HA metadata go: a directory every JobManager and "
                    + "TaskManager reaches (hdfs://NAMENODE:8020/DIR). Default: this cluster file's directory, "
                    + "right only where the Flink nodes share this machine's disk.")
    String flinkState;

    @Option(
            names = "--yarn-conf",
            paramLabel = "DIR",
            description = "YARN's client configuration (HADOOP_CONF_DIR-style: yarn-site.xml).")
    Path yarnConf;

    @Option(
            names = "--packages",
            paramLabel = "URI",
            description = "Where packages go for YARN to localize: hdfs://NAMENODE:8020/DIR (through Hadoop's "
                    + "client, configured by --yarn-conf), or file:///DIR on a disk every NodeManager shares.")
    String packages;

    @Option(
            names = "--couchbase",
            paramLabel = "CONNECTION",
            description = "The cache: a Couchbase connection string (couchbase://host).")
    String couchbase;

    @Option(
            names = "--couchbase-bucket",
            paramLabel = "NAME",
            defaultValue = "nearline",
            description = "Default: ${DEFAULT-VALUE}.")
    String couchbaseBucket;

    @Option(
            names = "--couchbase-user",
            paramLabel = "NAME",
            defaultValue = "nearline",
            description = "Default: ${DEFAULT-VALUE}.")
    String couchbaseUser;

    @Option(
            names = "--couchbase-password",
            paramLabel = "REF",
            description = "The Couchbase user's password by reference: file:PATH or env:VAR.")
    String couchbasePassword;

    @Option(names = "--redis", paramLabel = "URIS", description = "The cache: Redis servers (redis://host:6379,...).")
    String redis;

    @Option(names = "--redis-user", paramLabel = "NAME", description = "The Redis ACL user, if any.")
    String redisUser;

    @Option(
            names = "--redis-password",
            paramLabel = "REF",
            description = "The Redis password by reference: file:PATH or env:VAR.")
    String redisPassword;

    @Option(names = "--connect-rest", paramLabel = "URL", description = "A Kafka Connect worker's REST URL.")
    String connectRest;

    @Option(
            names = "--zookeeper",
            paramLabel = "QUORUM",
            description = "ZooKeeper for Flink's high availability on YARN (host:2181,...): a JobManager that dies "
                    + "comes back from the job's last checkpoint.")
    String zookeeper;

    @Override
    public Integer call() throws Exception {
        if ((couchbase == null) == (redis == null)) {
            throw new ClusterException("name the cache: --couchbase CONNECTION or --redis URIS (one of them)");
        }
        Path dir = where.path();
        if (ClusterFile.exists(dir)) {
            throw new ClusterException(dir.resolve(ClusterFile.NAME) + " exists: choose another --dir, or remove it");
        }
        Map<String, String> store = new LinkedHashMap<>();
        if (couchbase != null) {
            store.put("connection-string", couchbase);
            store.put("bucket", couchbaseBucket);
            store.put("username", couchbaseUser);
            if (couchbasePassword != null) {
                store.put("password", reference("--couchbase-password", couchbasePassword));
            }
        } else {
            store.put("servers", redis);
            if (redisUser != null) {
                store.put("username", redisUser);
            }
            if (redisPassword != null) {
                store.put("password", reference("--redis-password", redisPassword));
            }
        }
        if (packages != null && !packages.matches("[a-z][a-z0-9+.-]*://.+")) {
            throw new ClusterException("--packages " + packages + " is not a URI: hdfs://NAMENODE:8020/DIR, or "
                    + "file:///DIR on a disk every NodeManager shares");
        }
        if (packages != null && !packages.startsWith("file:") && yarnConf == null) {
            throw new ClusterException("--packages " + packages + " needs --yarn-conf DIR: Hadoop's client reads "
                    + "the file system's settings (core-site.xml, hdfs-site.xml) from there");
        }
        String[] yarn = yarnConf == null ? new String[2] : YarnSite.resourceManager(yarnConf);
        Files.createDirectories(dir);
        new ClusterFile(
                        dir,
                        kafka,
                        couchbase != null ? "couchbase" : "redis",
                        store,
                        flinkRest,
                        flinkState,
                        yarn[0],
                        yarn[1],
                        yarnConf == null ? null : yarnConf.toAbsolutePath(),
                        packages,
                        null,
                        null,
                        connectRest,
                        zookeeper,
                        Map.of(),
                        Map.of())
                .write();
        System.out.println("cluster init: wrote " + dir.resolve(ClusterFile.NAME) + " (addresses only)");
        System.out.println("  check:  bin/nearline cluster check --cluster " + dir);
        return 0;
    }

    private static String reference(String option, String value) {
        if (!value.startsWith("file:") && !value.startsWith("env:")) {
            throw new ClusterException(option + " must be a reference, file:PATH or env:VAR: a password is never "
                    + "written into the cluster file");
        }
        return value;
    }
}
