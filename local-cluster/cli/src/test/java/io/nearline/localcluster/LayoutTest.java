package io.nearline.localcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.ProductionIsolation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layout's dependency rule (docs/architecture.md): tools -> jobs -> common. The front door sees
 * every tool and the cores and stores they run, so the class rules are checked here; the module rule
 * reads the POMs, because a test-scoped dependency of a job module on a tool shows only there.
 */
class LayoutTest {

    /** The folders that hold job modules (and their engine-free reference runs): none depends on a local tool. */
    static final List<String> JOB_FOLDERS =
            List.of("common", "engines", "cache-updater", "feed-tracking-join", "cdc-bootstrap", "jobs");

    /** Tests run in the module's folder, local-cluster/cli. */
    private static final Path CHECKOUT = Path.of("../..").toAbsolutePath().normalize();

    private static final Pattern TOOL_DEPENDENCY = Pattern.compile(
            "<dependency>\\s*<groupId>io\\.nearline</groupId>\\s*<artifactId>((?:local-cluster|lxc-testbed)[\\w-]*)</artifactId>");

    @Test
    void toolsAndJobsOnOneClasspathKeepTheClassRules() {
        ProductionIsolation.check();
    }

    @Test
    void noJobModuleDependsOnLocalClusterOrTheTestbedInAnyScope() throws IOException {
        List<String> breaches = new ArrayList<>();
        for (String folder : JOB_FOLDERS) {
            try (Stream<Path> poms = Files.walk(CHECKOUT.resolve(folder))) {
                for (Path pom : poms.filter(
                                p -> p.endsWith("pom.xml") && !p.toString().contains("/target/"))
                        .toList()) {
                    toolDependencies(Files.readString(pom)).forEach(a -> breaches.add(pom + " -> " + a));
                }
            }
        }
        assertEquals(List.of(), breaches, "job modules must not depend on local-cluster or lxc-testbed");
    }

    @Test
    void theModuleRuleSeesAPlantedToolDependency() {
        String planted = """
                <dependencies>
                  <dependency>
                    <groupId>io.nearline</groupId>
                    <artifactId>local-cluster-kit</artifactId>
                    <scope>test</scope>
                  </dependency>
                  <dependency>
                    <groupId>io.nearline</groupId>
                    <artifactId>nearline-common</artifactId>
                  </dependency>
                </dependencies>""";
        assertEquals(List.of("local-cluster-kit"), toolDependencies(planted));
        assertTrue(toolDependencies(planted.replace("local-cluster-kit", "cache-updater-core"))
                .isEmpty());
    }

    static List<String> toolDependencies(String pom) {
        List<String> found = new ArrayList<>();
        Matcher m = TOOL_DEPENDENCY.matcher(pom);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }
}
