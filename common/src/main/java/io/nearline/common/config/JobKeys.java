package io.nearline.common.config;

/**
 * Settings every streaming job has, with the same name and meaning in each job's configuration.
 * Parallelism, checkpointing and restarts are not among them: they belong to the engine's own
 * configuration (Flink's {@code parallelism.default}, {@code execution.checkpointing.interval};
 * Samza's {@code job.container.count}, {@code task.commit.ms}).
 */
public final class JobKeys {

    private JobKeys() {}

    public static final ConfigKey<String> BOOTSTRAP_SERVERS = ConfigKey.required(
                    "kafka.bootstrap-servers",
                    ValueType.STRING,
                    "Kafka brokers the job reads its input from and writes its outputs and dead letters to (host:port,...). "
                            + "On Samza, give the same list to the Kafka system (systems.kafka.*.bootstrap.servers).")
            .checked(Check.notBlank());
}
