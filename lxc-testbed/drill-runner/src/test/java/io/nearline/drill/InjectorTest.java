package io.nearline.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.localcluster.cluster.ClusterException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A fault that fails half-way is healed where it reached, not reported untouched and left in place. */
class InjectorTest {

    @Test
    void aFailureHalfWayKeepsEveryTargetItReachedTheFailingOneIncluded() {
        List<String> acted = new ArrayList<>();
        Injector.Reached<String> r = Injector.onEach(List.of("node-1", "node-2", "node-3"), n -> {
            acted.add(n);
            if (n.equals("node-2")) {
                throw new ClusterException("nft failed on " + n);
            }
        });
        assertEquals(List.of("node-1", "node-2"), r.targets(), "node-2 may be half cut: heal it too");
        assertEquals(List.of("node-1", "node-2"), acted, "node-3 never touched");
        assertTrue(r.failure().getMessage().contains("node-2"));
    }

    @Test
    void everyTargetReachedWithoutAFailure() {
        Injector.Reached<String> r = Injector.onEach(List.of("a", "b"), n -> {});
        assertEquals(List.of("a", "b"), r.targets());
        assertNull(r.failure());
    }

    @Test
    void anApplyThatReachedSomethingIsDueAHealEvenWhenNotInPlace() {
        assertTrue(new Injector.Applied(false, "node-1,node-2", "failed on node-2").touched());
        assertFalse(new Injector.Applied(false, "-", "no container running").touched());
        assertTrue(new Injector.Applied(true, "node-1", "frozen").touched());
    }
}
