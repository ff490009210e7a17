package io.nearline.common.config;

import java.time.Duration;

/** Settings every streaming job has, with the same name and meaning in each job's configuration. */
public final class JobKeys {

    private JobKeys() {
    }

    public static final ConfigKey<String> BOOTSTRAP_SERVERS = ConfigKey.required("kafka.bootstrap-servers", ValueType.STRING,
            "Kafka brokers the job reads its input from and writes its outputs and dead letters to (host:port,...).")
            .checked(Check.notBlank());
    public static final ConfigKey<Integer> PARALLELISM = ConfigKey.of("job.parallelism", ValueType.INT, 2,
            "Parallel tasks of the job (Flink parallelism; Samza container threads).").checked(Check.between(1, 1024));
    public static final ConfigKey<Duration> CHECKPOINT_INTERVAL = ConfigKey.of("job.checkpoint-interval", ValueType.DURATION,
            Duration.ofSeconds(2), "How often input positions are committed together with the job's state and side "
                    + "effects (a checkpoint).").checked(Check.positiveDuration());
}
