import unittest

from .fakes import ManualTime


class SessionClockTest(unittest.TestCase):
    def test_time_passes_with_the_monotonic_clock(self) -> None:
        time = ManualTime()
        clock = time.clock()
        start = clock.now()
        time.advance(2.5)
        self.assertAlmostEqual(clock.now() - start, 2.5)

    def test_a_suspend_counts_though_the_monotonic_clock_stood_still(self) -> None:
        time = ManualTime()
        clock = time.clock()
        start = clock.now()
        time.advance(600.0, wall_only=True)  # CLOCK_MONOTONIC does not run during suspend
        self.assertAlmostEqual(clock.now() - start, 600.0)

    def test_a_backward_step_of_the_wall_clock_neither_stops_nor_reverses_it(self) -> None:
        time = ManualTime()
        clock = time.clock()
        start = clock.now()
        time.step_wall(-3_600.0)
        time.advance(1.0)
        first = clock.now()
        self.assertAlmostEqual(first - start, 1.0)
        time.advance(1.0)
        self.assertAlmostEqual(clock.now() - first, 1.0)

    def test_a_forward_step_of_the_wall_clock_makes_time_run_ahead_never_back(self) -> None:
        time = ManualTime()
        clock = time.clock()
        start = clock.now()
        time.step_wall(60.0)
        after_jump = clock.now()
        self.assertAlmostEqual(after_jump - start, 60.0)
        time.step_wall(-60.0)
        self.assertGreaterEqual(clock.now(), after_jump)


if __name__ == "__main__":
    unittest.main()
