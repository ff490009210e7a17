package io.nearline.engine.flink;

import io.nearline.common.config.Config;
import io.nearline.common.config.KafkaSecurity;
import java.util.Properties;

/** A job's Kafka client security ({@code kafka.security.*}) as the Kafka connector's builders take it. */
public final class KafkaClientSecurity {

    private KafkaClientSecurity() {}

    /**
     * The security properties for every source and sink of the job; passwords are read here, where the
     * job's main runs (the JobManager, or the client of a local run), and reach the TaskManagers inside
     * the job graph.
     */
    public static Properties of(Config config) {
        Properties p = new Properties();
        p.putAll(KafkaSecurity.from(config).clientProperties());
        return p;
    }
}
