"""A fast path wrapped to count what it took, for the fold tests that must see each fast path
take the events it is for (issue 17, P1): a fast path that quietly declined everything would
still agree with the general path, so agreement alone proves nothing about it."""

from __future__ import annotations


class Counted:
    """A fast path that counts the events it applied (it answered True) and declined (False)."""

    def __init__(self, real):
        self.real = real
        self.taken = self.declined = 0

    def __call__(self, *args):
        done = self.real(*args)
        if done:
            self.taken += 1
        else:
            self.declined += 1
        return done
