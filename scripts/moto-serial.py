"""moto's server, answering one request at a time.

moto's own `moto_server` is threaded, and its DynamoDB backend does not lock a
conditional write against a concurrent one: two parallel compare-and-set writes
can both succeed there, which real DynamoDB never allows. Serving requests one
by one restores DynamoDB's atomicity, so the contract suite tests our code, not
a race inside the emulator.

usage: python moto-serial.py PORT
"""
import os
import sys

from moto.server import DomainDispatcherApplication, create_backend_app
from moto.moto_server.werkzeug_app import MotoRequestHandler  # noqa: F401 (moto's request handler)
from werkzeug.serving import run_simple

port = int(sys.argv[1])
os.environ.setdefault("MOTO_PORT", str(port))
app = DomainDispatcherApplication(create_backend_app)
run_simple("127.0.0.1", port, app, threaded=False, processes=1, request_handler=MotoRequestHandler)
