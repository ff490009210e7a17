package io.nearline.localcluster.kit;

import picocli.CommandLine.Option;

/**
 * {@code --engine flink|samza}, required (a picocli mixin): which engine's runner runs the job; the
 * cache updater's commands also take {@code connect}, its Kafka Connect sink.
 */
public final class EngineOption {

    @Option(
            names = "--engine",
            required = true,
            description =
                    "flink or samza (replay cdc: also connect, the cache sink connector in a Kafka Connect worker).")
    public String name;
}
