"""The server freezes what a check leaves alive (gdef_lsp.server.UNFREEZE_AFTER), and hands
it back to the cyclic collector every UNFREEZE_AFTER checks, so garbage cycles are still freed."""
import gc

from gdef_lsp.server import UNFREEZE_AFTER, GdefServer


def test_checks_freeze_objects_and_every_hundredth_unfreezes():
    server = GdefServer()
    gc.unfreeze()
    try:
        kept = [object() for _ in range(10)]  # noqa: F841 (alive while frozen)
        server.freeze_objects()
        assert gc.get_freeze_count() > 0
        for _ in range(UNFREEZE_AFTER - 2):
            server.freeze_objects()
        assert gc.get_freeze_count() > 0 and server.frozen_checks == UNFREEZE_AFTER - 1
        server.freeze_objects()
        assert gc.get_freeze_count() == 0 and server.frozen_checks == 0
    finally:
        gc.unfreeze()


def test_a_garbage_cycle_frozen_by_a_check_is_freed_after_the_unfreeze():
    import weakref

    class Node:
        pass

    server = GdefServer()
    gc.unfreeze()
    try:
        node = Node()
        node.itself = node
        alive = weakref.ref(node)
        server.freeze_objects()
        del node
        gc.collect()
        assert alive() is not None  # frozen: the collector does not look at it
        for _ in range(UNFREEZE_AFTER - 1):
            server.freeze_objects()
        gc.collect()
        assert alive() is None
    finally:
        gc.unfreeze()
