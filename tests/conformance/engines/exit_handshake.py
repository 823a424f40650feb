"""Exits during the handshake: reads the handshake request and leaves without answering."""
import sys

sys.stdin.buffer.readline()
sys.stderr.write("exit_handshake: leaving before the handshake answer\n")
sys.exit(3)
