package io.nearline.common.config;

import java.util.List;

/** Configuration that cannot be used. The message lists every problem, each naming the key and the fix. */
public class ConfigException extends RuntimeException {

    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super(
                problems.size() == 1
                        ? "Invalid configuration: " + problems.get(0)
                        : "Invalid configuration (" + problems.size() + " problems):\n  - "
                                + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public ConfigException(String problem) {
        this(List.of(problem));
    }

    public List<String> problems() {
        return problems;
    }
}
