package io.nearline.localcluster.kit;

import picocli.CommandLine.Option;

/** {@code --engine flink|samza}, required (a picocli mixin): which engine's runner runs the job. */
public final class EngineOption {

    @Option(names = "--engine", required = true, description = "flink or samza.")
    public String name;
}
