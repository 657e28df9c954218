import unittest
from typing import List, Tuple

import grpc

from palisade import errors
from palisade.v1 import lock_pb2
from palisade.wire import LEADER_METADATA_KEY, REASON_METADATA_KEY, WIRE_ERRORS, error_from_status


class WireTableTest(unittest.TestCase):
    def test_every_error_reason_of_the_proto_has_a_status_code_and_a_class(self) -> None:
        names = {name for name in lock_pb2.ErrorReason.keys() if name != "ERROR_REASON_UNSPECIFIED"}
        self.assertEqual(set(WIRE_ERRORS), names)

    def test_the_reason_decides_the_class_not_the_message(self) -> None:
        err = error_from_status(grpc.StatusCode.FAILED_PRECONDITION, "not holder", [(REASON_METADATA_KEY, "ERROR_REASON_STALE_TOKEN")])
        self.assertIsInstance(err, errors.StaleTokenError)
        self.assertEqual(err.reason, "ERROR_REASON_STALE_TOKEN")
        self.assertEqual(err.code, grpc.StatusCode.FAILED_PRECONDITION)
        self.assertEqual(err.message, "not holder")

    def test_a_status_without_a_known_reason_maps_by_its_code(self) -> None:
        cases: List[Tuple[grpc.StatusCode, List[Tuple[str, object]], type]] = [
            (grpc.StatusCode.RESOURCE_EXHAUSTED, [], errors.LimitError),
            (grpc.StatusCode.NOT_FOUND, [(REASON_METADATA_KEY, "ERROR_REASON_FROM_THE_FUTURE")], errors.SessionNotFoundError),
            (grpc.StatusCode.FAILED_PRECONDITION, [], errors.FailedPreconditionError),
            (grpc.StatusCode.PERMISSION_DENIED, [], errors.ServerError),
        ]
        for code, metadata, cls in cases:
            with self.subTest(code=code):
                err = error_from_status(code, "text", metadata)
                self.assertIs(type(err), cls)
                self.assertIsNone(err.reason)

    def test_a_reason_sent_with_another_code_gives_way_to_the_code(self) -> None:
        err = error_from_status(grpc.StatusCode.UNAVAILABLE, "x", [(REASON_METADATA_KEY, "ERROR_REASON_STALE_TOKEN")])
        self.assertIs(type(err), errors.UnavailableError)

    def test_a_reason_that_is_not_about_the_session_does_not_read_as_session_not_found(self) -> None:
        err = error_from_status(grpc.StatusCode.NOT_FOUND, "x", [(REASON_METADATA_KEY, "ERROR_REASON_NO_SUCH_WAIT")])
        self.assertIs(type(err), errors.ServerError)
        self.assertIn("NOT_FOUND", err.message)

    def test_metadata_keys_are_the_ones_nodes_send(self) -> None:
        self.assertEqual((REASON_METADATA_KEY, LEADER_METADATA_KEY), ("palisade-reason", "palisade-leader"))


if __name__ == "__main__":
    unittest.main()
