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
package io.nearline.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The jobs' Flink settings ({@code jobs/flink-conf/config.yaml}) as Flink's Prometheus reporter reads
 * them. A reporter gets its options as {@link Properties}, and {@link Properties#getProperty} answers
 * null for a value that is not a string: a YAML {@code false} reaches it as a Boolean where Flink keeps
 * the parsed value (on YARN), so the reporter fell back to its default and filtered the job's name
 * ({@code nearline_cache_updater_yarn} instead of {@code nearline-cache-updater-yarn}, seen on the
 * testbed's Prometheus). Every reporter option is therefore written as a string.
 */
class FlinkConfTest {

    private static final Path CONF = Path.of("flink-conf/config.yaml");

    private static Map<String, Object> yaml(String text) {
        return new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    }

    /** What a reporter finds under a key: as Flink hands it the parsed value. */
    private static String asReporterReadsIt(Object value, String key) {
        Properties options = new Properties();
        options.put(key, value);
        return options.getProperty(key);
    }

    @Test
    void everyReporterOptionReachesTheReporter() throws Exception {
        Map<String, Object> conf = yaml(Files.readString(CONF));
        int options = 0;
        for (Map.Entry<String, Object> e : conf.entrySet()) {
            if (e.getKey().startsWith("metrics.reporter.")) {
                options++;
                assertInstanceOf(String.class, e.getValue(), e.getKey() + " must be written as a string");
                assertEquals(String.valueOf(e.getValue()), asReporterReadsIt(e.getValue(), e.getKey()));
            }
        }
        assertEquals(
                "false",
                asReporterReadsIt(conf.get("metrics.reporter.prom.filterLabelValueCharacters"), "f"),
                "label values kept as the jobs write them");
        assertEquals(3, options, "the reporter's options: factory, ports, filter");
    }

    /** The control: the value unquoted, as it was, is lost on its way to the reporter. */
    @Test
    void anUnquotedBooleanIsLostOnItsWay() {
        Object parsed = yaml("metrics.reporter.prom.filterLabelValueCharacters: false\n")
                .get("metrics.reporter.prom.filterLabelValueCharacters");
        assertInstanceOf(Boolean.class, parsed);
        assertNull(asReporterReadsIt(parsed, "filterLabelValueCharacters"));
    }
}
