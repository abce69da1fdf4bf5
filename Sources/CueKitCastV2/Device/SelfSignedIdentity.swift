import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A device's TLS identity, made at start: a new P-256 key and a certificate it signs itself, as a
/// Cast device presents (senders do not verify it).
struct SelfSignedIdentity {
    let certificate: NIOSSLCertificate
    let privateKey: NIOSSLPrivateKey

    init(commonName: String) throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(2 * 24 * 3600),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: Certificate.Extensions {},
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        self.certificate = try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
        privateKey = try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)
    }
}
