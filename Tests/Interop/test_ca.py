#!/usr/bin/env python3
"""A test certificate authority for linkstr's TLS tests.

usage: test_ca.py OUTDIR

Writes into OUTDIR: ca.pem (the test CA), and for each case a NAME.pem / NAME.key pair:
  good      issued by the CA for localhost and 127.0.0.1, valid now
  expired   issued by the CA for the same names, expired a year ago
  othername issued by the CA for relay.example only (a name mismatch on localhost)
  selfsigned not issued by the CA at all (self-signed, for localhost)
"""
import datetime
import ipaddress
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

out = sys.argv[1]
now = datetime.datetime.now(datetime.timezone.utc)


def write(name, key, cert):
    with open(os.path.join(out, name + ".key"), "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with open(os.path.join(out, name + ".pem"), "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


ca_key = ec.generate_private_key(ec.SECP256R1())
ca = (x509.CertificateBuilder().subject_name(name("linkstr test CA")).issuer_name(name("linkstr test CA"))
      .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
      .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
      .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
      .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True, content_commitment=False,
                                   key_encipherment=False, data_encipherment=False, key_agreement=False,
                                   encipher_only=False, decipher_only=False), critical=True)
      .sign(ca_key, hashes.SHA256()))
write("ca", ca_key, ca)


def leaf(label, names, before, after, issuer_key=ca_key, issuer=ca.subject):
    key = ec.generate_private_key(ec.SECP256R1())
    sans = [x509.IPAddress(ipaddress.ip_address(n)) if n[0].isdigit() else x509.DNSName(n) for n in names]
    cert = (x509.CertificateBuilder().subject_name(name(names[0])).issuer_name(issuer if issuer_key is ca_key else name(names[0]))
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(before).not_valid_after(after)
            .add_extension(x509.SubjectAlternativeName(sans), critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(issuer_key if issuer_key is not None else key, hashes.SHA256()))
    write(label, key, cert)
    return key


leaf("good", ["localhost", "127.0.0.1"], now - datetime.timedelta(days=1), now + datetime.timedelta(days=30))
leaf("expired", ["localhost", "127.0.0.1"], now - datetime.timedelta(days=400), now - datetime.timedelta(days=365))
leaf("othername", ["relay.example"], now - datetime.timedelta(days=1), now + datetime.timedelta(days=30))
leaf("selfsigned", ["localhost", "127.0.0.1"], now - datetime.timedelta(days=1), now + datetime.timedelta(days=30), issuer_key=None)
