import * as $protobuf from "protobufjs";
import Long = require("long");

/** Namespace palisade. */
export namespace palisade {

    /** Namespace v1. */
    namespace v1 {

        /** Represents an AdminService */
        class AdminService extends $protobuf.rpc.Service {

            /**
             * Constructs a new AdminService service.
             * @param rpcImpl RPC implementation
             * @param [requestDelimited=false] Whether requests are length-delimited
             * @param [responseDelimited=false] Whether responses are length-delimited
             */
            constructor(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean);

            /**
             * Creates new AdminService service using the specified rpc implementation.
             * @param rpcImpl RPC implementation
             * @param [requestDelimited=false] Whether requests are length-delimited
             * @param [responseDelimited=false] Whether responses are length-delimited
             * @returns RPC service. Useful where requests and/or responses are streamed.
             */
            static create(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean): AdminService;

            /** Calls Status. */
            status: palisade.v1.AdminService.Status;

            /** Calls RevokeLock. */
            revokeLock: palisade.v1.AdminService.RevokeLock;

            /** Calls TransferLeader. */
            transferLeader: palisade.v1.AdminService.TransferLeader;

            /** Calls MemberList. */
            memberList: palisade.v1.AdminService.MemberList;

            /** Calls MemberAdd. */
            memberAdd: palisade.v1.AdminService.MemberAdd;

            /** Calls MemberPromote. */
            memberPromote: palisade.v1.AdminService.MemberPromote;

            /** Calls MemberRemove. */
            memberRemove: palisade.v1.AdminService.MemberRemove;

            /** Calls SnapshotSave. */
            snapshotSave: palisade.v1.AdminService.SnapshotSave;

            /** Calls Backup. */
            backup: palisade.v1.AdminService.Backup;

            /** Calls ApplyPolicy. */
            applyPolicy: palisade.v1.AdminService.ApplyPolicy;

            /** Calls GetPolicy. */
            getPolicy: palisade.v1.AdminService.GetPolicy;

            /** Calls CreateToken. */
            createToken: palisade.v1.AdminService.CreateToken;

            /** Calls ListTokens. */
            listTokens: palisade.v1.AdminService.ListTokens;

            /** Calls RevokeToken. */
            revokeToken: palisade.v1.AdminService.RevokeToken;

            /** Calls WhoAmI. */
            whoAmI: palisade.v1.AdminService.WhoAmI;

            /** Calls Can. */
            can: palisade.v1.AdminService.Can;
        }

        namespace AdminService {

            /**
             * Callback as used by {@link palisade.v1.AdminService#status}.
             * @param error Error, if any
             * @param [response] StatusResponse
             */
            type StatusCallback = (error: (Error|null), response?: palisade.v1.StatusResponse) => void;

            /** Calls Status. */
            type Status = {
              (request: palisade.v1.IStatusRequest, callback: palisade.v1.AdminService.StatusCallback): void;
              (request: palisade.v1.IStatusRequest): Promise<palisade.v1.StatusResponse>;
              readonly name: "Status";
              readonly path: "/palisade.v1.AdminService/Status";
              readonly requestType: "StatusRequest";
              readonly responseType: "StatusResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#revokeLock}.
             * @param error Error, if any
             * @param [response] RevokeLockResponse
             */
            type RevokeLockCallback = (error: (Error|null), response?: palisade.v1.RevokeLockResponse) => void;

            /** Calls RevokeLock. */
            type RevokeLock = {
              (request: palisade.v1.IRevokeLockRequest, callback: palisade.v1.AdminService.RevokeLockCallback): void;
              (request: palisade.v1.IRevokeLockRequest): Promise<palisade.v1.RevokeLockResponse>;
              readonly name: "RevokeLock";
              readonly path: "/palisade.v1.AdminService/RevokeLock";
              readonly requestType: "RevokeLockRequest";
              readonly responseType: "RevokeLockResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#transferLeader}.
             * @param error Error, if any
             * @param [response] TransferLeaderResponse
             */
            type TransferLeaderCallback = (error: (Error|null), response?: palisade.v1.TransferLeaderResponse) => void;

            /** Calls TransferLeader. */
            type TransferLeader = {
              (request: palisade.v1.ITransferLeaderRequest, callback: palisade.v1.AdminService.TransferLeaderCallback): void;
              (request: palisade.v1.ITransferLeaderRequest): Promise<palisade.v1.TransferLeaderResponse>;
              readonly name: "TransferLeader";
              readonly path: "/palisade.v1.AdminService/TransferLeader";
              readonly requestType: "TransferLeaderRequest";
              readonly responseType: "TransferLeaderResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#memberList}.
             * @param error Error, if any
             * @param [response] MemberListResponse
             */
            type MemberListCallback = (error: (Error|null), response?: palisade.v1.MemberListResponse) => void;

            /** Calls MemberList. */
            type MemberList = {
              (request: palisade.v1.IMemberListRequest, callback: palisade.v1.AdminService.MemberListCallback): void;
              (request: palisade.v1.IMemberListRequest): Promise<palisade.v1.MemberListResponse>;
              readonly name: "MemberList";
              readonly path: "/palisade.v1.AdminService/MemberList";
              readonly requestType: "MemberListRequest";
              readonly responseType: "MemberListResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#memberAdd}.
             * @param error Error, if any
             * @param [response] MemberAddResponse
             */
            type MemberAddCallback = (error: (Error|null), response?: palisade.v1.MemberAddResponse) => void;

            /** Calls MemberAdd. */
            type MemberAdd = {
              (request: palisade.v1.IMemberAddRequest, callback: palisade.v1.AdminService.MemberAddCallback): void;
              (request: palisade.v1.IMemberAddRequest): Promise<palisade.v1.MemberAddResponse>;
              readonly name: "MemberAdd";
              readonly path: "/palisade.v1.AdminService/MemberAdd";
              readonly requestType: "MemberAddRequest";
              readonly responseType: "MemberAddResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#memberPromote}.
             * @param error Error, if any
             * @param [response] MemberPromoteResponse
             */
            type MemberPromoteCallback = (error: (Error|null), response?: palisade.v1.MemberPromoteResponse) => void;

            /** Calls MemberPromote. */
            type MemberPromote = {
              (request: palisade.v1.IMemberPromoteRequest, callback: palisade.v1.AdminService.MemberPromoteCallback): void;
              (request: palisade.v1.IMemberPromoteRequest): Promise<palisade.v1.MemberPromoteResponse>;
              readonly name: "MemberPromote";
              readonly path: "/palisade.v1.AdminService/MemberPromote";
              readonly requestType: "MemberPromoteRequest";
              readonly responseType: "MemberPromoteResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#memberRemove}.
             * @param error Error, if any
             * @param [response] MemberRemoveResponse
             */
            type MemberRemoveCallback = (error: (Error|null), response?: palisade.v1.MemberRemoveResponse) => void;

            /** Calls MemberRemove. */
            type MemberRemove = {
              (request: palisade.v1.IMemberRemoveRequest, callback: palisade.v1.AdminService.MemberRemoveCallback): void;
              (request: palisade.v1.IMemberRemoveRequest): Promise<palisade.v1.MemberRemoveResponse>;
              readonly name: "MemberRemove";
              readonly path: "/palisade.v1.AdminService/MemberRemove";
              readonly requestType: "MemberRemoveRequest";
              readonly responseType: "MemberRemoveResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#snapshotSave}.
             * @param error Error, if any
             * @param [response] SnapshotSaveResponse
             */
            type SnapshotSaveCallback = (error: (Error|null), response?: palisade.v1.SnapshotSaveResponse) => void;

            /** Calls SnapshotSave. */
            type SnapshotSave = {
              (request: palisade.v1.ISnapshotSaveRequest, callback: palisade.v1.AdminService.SnapshotSaveCallback): void;
              (request: palisade.v1.ISnapshotSaveRequest): Promise<palisade.v1.SnapshotSaveResponse>;
              readonly name: "SnapshotSave";
              readonly path: "/palisade.v1.AdminService/SnapshotSave";
              readonly requestType: "SnapshotSaveRequest";
              readonly responseType: "SnapshotSaveResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#backup}.
             * @param error Error, if any
             * @param [response] BackupChunk
             */
            type BackupCallback = (error: (Error|null), response?: palisade.v1.BackupChunk) => void;

            /** Calls Backup. */
            type Backup = {
              (request: palisade.v1.IBackupRequest, callback: palisade.v1.AdminService.BackupCallback): void;
              (request: palisade.v1.IBackupRequest): Promise<palisade.v1.BackupChunk>;
              readonly name: "Backup";
              readonly path: "/palisade.v1.AdminService/Backup";
              readonly requestType: "BackupRequest";
              readonly responseType: "BackupChunk";
              readonly requestStream: undefined;
              readonly responseStream: true;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#applyPolicy}.
             * @param error Error, if any
             * @param [response] ApplyPolicyResponse
             */
            type ApplyPolicyCallback = (error: (Error|null), response?: palisade.v1.ApplyPolicyResponse) => void;

            /** Calls ApplyPolicy. */
            type ApplyPolicy = {
              (request: palisade.v1.IApplyPolicyRequest, callback: palisade.v1.AdminService.ApplyPolicyCallback): void;
              (request: palisade.v1.IApplyPolicyRequest): Promise<palisade.v1.ApplyPolicyResponse>;
              readonly name: "ApplyPolicy";
              readonly path: "/palisade.v1.AdminService/ApplyPolicy";
              readonly requestType: "ApplyPolicyRequest";
              readonly responseType: "ApplyPolicyResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#getPolicy}.
             * @param error Error, if any
             * @param [response] GetPolicyResponse
             */
            type GetPolicyCallback = (error: (Error|null), response?: palisade.v1.GetPolicyResponse) => void;

            /** Calls GetPolicy. */
            type GetPolicy = {
              (request: palisade.v1.IGetPolicyRequest, callback: palisade.v1.AdminService.GetPolicyCallback): void;
              (request: palisade.v1.IGetPolicyRequest): Promise<palisade.v1.GetPolicyResponse>;
              readonly name: "GetPolicy";
              readonly path: "/palisade.v1.AdminService/GetPolicy";
              readonly requestType: "GetPolicyRequest";
              readonly responseType: "GetPolicyResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#createToken}.
             * @param error Error, if any
             * @param [response] CreateTokenResponse
             */
            type CreateTokenCallback = (error: (Error|null), response?: palisade.v1.CreateTokenResponse) => void;

            /** Calls CreateToken. */
            type CreateToken = {
              (request: palisade.v1.ICreateTokenRequest, callback: palisade.v1.AdminService.CreateTokenCallback): void;
              (request: palisade.v1.ICreateTokenRequest): Promise<palisade.v1.CreateTokenResponse>;
              readonly name: "CreateToken";
              readonly path: "/palisade.v1.AdminService/CreateToken";
              readonly requestType: "CreateTokenRequest";
              readonly responseType: "CreateTokenResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#listTokens}.
             * @param error Error, if any
             * @param [response] ListTokensResponse
             */
            type ListTokensCallback = (error: (Error|null), response?: palisade.v1.ListTokensResponse) => void;

            /** Calls ListTokens. */
            type ListTokens = {
              (request: palisade.v1.IListTokensRequest, callback: palisade.v1.AdminService.ListTokensCallback): void;
              (request: palisade.v1.IListTokensRequest): Promise<palisade.v1.ListTokensResponse>;
              readonly name: "ListTokens";
              readonly path: "/palisade.v1.AdminService/ListTokens";
              readonly requestType: "ListTokensRequest";
              readonly responseType: "ListTokensResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#revokeToken}.
             * @param error Error, if any
             * @param [response] RevokeTokenResponse
             */
            type RevokeTokenCallback = (error: (Error|null), response?: palisade.v1.RevokeTokenResponse) => void;

            /** Calls RevokeToken. */
            type RevokeToken = {
              (request: palisade.v1.IRevokeTokenRequest, callback: palisade.v1.AdminService.RevokeTokenCallback): void;
              (request: palisade.v1.IRevokeTokenRequest): Promise<palisade.v1.RevokeTokenResponse>;
              readonly name: "RevokeToken";
              readonly path: "/palisade.v1.AdminService/RevokeToken";
              readonly requestType: "RevokeTokenRequest";
              readonly responseType: "RevokeTokenResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#whoAmI}.
             * @param error Error, if any
             * @param [response] WhoAmIResponse
             */
            type WhoAmICallback = (error: (Error|null), response?: palisade.v1.WhoAmIResponse) => void;

            /** Calls WhoAmI. */
            type WhoAmI = {
              (request: palisade.v1.IWhoAmIRequest, callback: palisade.v1.AdminService.WhoAmICallback): void;
              (request: palisade.v1.IWhoAmIRequest): Promise<palisade.v1.WhoAmIResponse>;
              readonly name: "WhoAmI";
              readonly path: "/palisade.v1.AdminService/WhoAmI";
              readonly requestType: "WhoAmIRequest";
              readonly responseType: "WhoAmIResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.AdminService#can}.
             * @param error Error, if any
             * @param [response] CanResponse
             */
            type CanCallback = (error: (Error|null), response?: palisade.v1.CanResponse) => void;

            /** Calls Can. */
            type Can = {
              (request: palisade.v1.ICanRequest, callback: palisade.v1.AdminService.CanCallback): void;
              (request: palisade.v1.ICanRequest): Promise<palisade.v1.CanResponse>;
              readonly name: "Can";
              readonly path: "/palisade.v1.AdminService/Can";
              readonly requestType: "CanRequest";
              readonly responseType: "CanResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
        }

        /**
         * Properties of an ApplyPolicyRequest.
         * @deprecated Use palisade.v1.ApplyPolicyRequest.$Properties instead.
         */
        interface IApplyPolicyRequest extends palisade.v1.ApplyPolicyRequest.$Properties {
        }

        /** Represents an ApplyPolicyRequest. */
        class ApplyPolicyRequest {

            /**
             * Constructs a new ApplyPolicyRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ApplyPolicyRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ApplyPolicyRequest text. */
            text: string;

            /**
             * Creates a new ApplyPolicyRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ApplyPolicyRequest instance
             */
            static create(properties: palisade.v1.ApplyPolicyRequest.$Shape): palisade.v1.ApplyPolicyRequest & palisade.v1.ApplyPolicyRequest.$Shape;
            static create(properties?: palisade.v1.ApplyPolicyRequest.$Properties): palisade.v1.ApplyPolicyRequest;

            /**
             * Encodes the specified ApplyPolicyRequest message. Does not implicitly {@link palisade.v1.ApplyPolicyRequest.verify|verify} messages.
             * @param message ApplyPolicyRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ApplyPolicyRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ApplyPolicyRequest message, length delimited. Does not implicitly {@link palisade.v1.ApplyPolicyRequest.verify|verify} messages.
             * @param message ApplyPolicyRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ApplyPolicyRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an ApplyPolicyRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ApplyPolicyRequest & palisade.v1.ApplyPolicyRequest.$Shape} ApplyPolicyRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ApplyPolicyRequest & palisade.v1.ApplyPolicyRequest.$Shape;

            /**
             * Decodes an ApplyPolicyRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ApplyPolicyRequest & palisade.v1.ApplyPolicyRequest.$Shape} ApplyPolicyRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ApplyPolicyRequest & palisade.v1.ApplyPolicyRequest.$Shape;

            /**
             * Verifies an ApplyPolicyRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an ApplyPolicyRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ApplyPolicyRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ApplyPolicyRequest;

            /**
             * Creates a plain object from an ApplyPolicyRequest message. Also converts values to other types if specified.
             * @param message ApplyPolicyRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ApplyPolicyRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ApplyPolicyRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ApplyPolicyRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ApplyPolicyRequest {

            /** Properties of an ApplyPolicyRequest. */
            interface $Properties {

                /** ApplyPolicyRequest text */
                text?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an ApplyPolicyRequest. */
            type $Shape = palisade.v1.ApplyPolicyRequest.$Properties;
        }

        /**
         * Properties of an ApplyPolicyResponse.
         * @deprecated Use palisade.v1.ApplyPolicyResponse.$Properties instead.
         */
        interface IApplyPolicyResponse extends palisade.v1.ApplyPolicyResponse.$Properties {
        }

        /** Represents an ApplyPolicyResponse. */
        class ApplyPolicyResponse {

            /**
             * Constructs a new ApplyPolicyResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ApplyPolicyResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ApplyPolicyResponse version. */
            version: Long;

            /**
             * Creates a new ApplyPolicyResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ApplyPolicyResponse instance
             */
            static create(properties: palisade.v1.ApplyPolicyResponse.$Shape): palisade.v1.ApplyPolicyResponse & palisade.v1.ApplyPolicyResponse.$Shape;
            static create(properties?: palisade.v1.ApplyPolicyResponse.$Properties): palisade.v1.ApplyPolicyResponse;

            /**
             * Encodes the specified ApplyPolicyResponse message. Does not implicitly {@link palisade.v1.ApplyPolicyResponse.verify|verify} messages.
             * @param message ApplyPolicyResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ApplyPolicyResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ApplyPolicyResponse message, length delimited. Does not implicitly {@link palisade.v1.ApplyPolicyResponse.verify|verify} messages.
             * @param message ApplyPolicyResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ApplyPolicyResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an ApplyPolicyResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ApplyPolicyResponse & palisade.v1.ApplyPolicyResponse.$Shape} ApplyPolicyResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ApplyPolicyResponse & palisade.v1.ApplyPolicyResponse.$Shape;

            /**
             * Decodes an ApplyPolicyResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ApplyPolicyResponse & palisade.v1.ApplyPolicyResponse.$Shape} ApplyPolicyResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ApplyPolicyResponse & palisade.v1.ApplyPolicyResponse.$Shape;

            /**
             * Verifies an ApplyPolicyResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an ApplyPolicyResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ApplyPolicyResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ApplyPolicyResponse;

            /**
             * Creates a plain object from an ApplyPolicyResponse message. Also converts values to other types if specified.
             * @param message ApplyPolicyResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ApplyPolicyResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ApplyPolicyResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ApplyPolicyResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ApplyPolicyResponse {

            /** Properties of an ApplyPolicyResponse. */
            interface $Properties {

                /** ApplyPolicyResponse version */
                version?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an ApplyPolicyResponse. */
            type $Shape = palisade.v1.ApplyPolicyResponse.$Properties;
        }

        /**
         * Properties of a GetPolicyRequest.
         * @deprecated Use palisade.v1.GetPolicyRequest.$Properties instead.
         */
        interface IGetPolicyRequest extends palisade.v1.GetPolicyRequest.$Properties {
        }

        /** Represents a GetPolicyRequest. */
        class GetPolicyRequest {

            /**
             * Constructs a new GetPolicyRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.GetPolicyRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new GetPolicyRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns GetPolicyRequest instance
             */
            static create(properties: palisade.v1.GetPolicyRequest.$Shape): palisade.v1.GetPolicyRequest & palisade.v1.GetPolicyRequest.$Shape;
            static create(properties?: palisade.v1.GetPolicyRequest.$Properties): palisade.v1.GetPolicyRequest;

            /**
             * Encodes the specified GetPolicyRequest message. Does not implicitly {@link palisade.v1.GetPolicyRequest.verify|verify} messages.
             * @param message GetPolicyRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.GetPolicyRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified GetPolicyRequest message, length delimited. Does not implicitly {@link palisade.v1.GetPolicyRequest.verify|verify} messages.
             * @param message GetPolicyRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.GetPolicyRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a GetPolicyRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.GetPolicyRequest & palisade.v1.GetPolicyRequest.$Shape} GetPolicyRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.GetPolicyRequest & palisade.v1.GetPolicyRequest.$Shape;

            /**
             * Decodes a GetPolicyRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.GetPolicyRequest & palisade.v1.GetPolicyRequest.$Shape} GetPolicyRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.GetPolicyRequest & palisade.v1.GetPolicyRequest.$Shape;

            /**
             * Verifies a GetPolicyRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a GetPolicyRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns GetPolicyRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.GetPolicyRequest;

            /**
             * Creates a plain object from a GetPolicyRequest message. Also converts values to other types if specified.
             * @param message GetPolicyRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.GetPolicyRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this GetPolicyRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for GetPolicyRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetPolicyRequest {

            /** Properties of a GetPolicyRequest. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a GetPolicyRequest. */
            type $Shape = palisade.v1.GetPolicyRequest.$Properties;
        }

        /**
         * Properties of a GetPolicyResponse.
         * @deprecated Use palisade.v1.GetPolicyResponse.$Properties instead.
         */
        interface IGetPolicyResponse extends palisade.v1.GetPolicyResponse.$Properties {
        }

        /** Represents a GetPolicyResponse. */
        class GetPolicyResponse {

            /**
             * Constructs a new GetPolicyResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.GetPolicyResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** GetPolicyResponse text. */
            text: string;

            /** GetPolicyResponse version. */
            version: Long;

            /**
             * Creates a new GetPolicyResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns GetPolicyResponse instance
             */
            static create(properties: palisade.v1.GetPolicyResponse.$Shape): palisade.v1.GetPolicyResponse & palisade.v1.GetPolicyResponse.$Shape;
            static create(properties?: palisade.v1.GetPolicyResponse.$Properties): palisade.v1.GetPolicyResponse;

            /**
             * Encodes the specified GetPolicyResponse message. Does not implicitly {@link palisade.v1.GetPolicyResponse.verify|verify} messages.
             * @param message GetPolicyResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.GetPolicyResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified GetPolicyResponse message, length delimited. Does not implicitly {@link palisade.v1.GetPolicyResponse.verify|verify} messages.
             * @param message GetPolicyResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.GetPolicyResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a GetPolicyResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.GetPolicyResponse & palisade.v1.GetPolicyResponse.$Shape} GetPolicyResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.GetPolicyResponse & palisade.v1.GetPolicyResponse.$Shape;

            /**
             * Decodes a GetPolicyResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.GetPolicyResponse & palisade.v1.GetPolicyResponse.$Shape} GetPolicyResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.GetPolicyResponse & palisade.v1.GetPolicyResponse.$Shape;

            /**
             * Verifies a GetPolicyResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a GetPolicyResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns GetPolicyResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.GetPolicyResponse;

            /**
             * Creates a plain object from a GetPolicyResponse message. Also converts values to other types if specified.
             * @param message GetPolicyResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.GetPolicyResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this GetPolicyResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for GetPolicyResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetPolicyResponse {

            /** Properties of a GetPolicyResponse. */
            interface $Properties {

                /** GetPolicyResponse text */
                text?: (string|null);

                /** GetPolicyResponse version */
                version?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a GetPolicyResponse. */
            type $Shape = palisade.v1.GetPolicyResponse.$Properties;
        }

        /**
         * Properties of a CreateTokenRequest.
         * @deprecated Use palisade.v1.CreateTokenRequest.$Properties instead.
         */
        interface ICreateTokenRequest extends palisade.v1.CreateTokenRequest.$Properties {
        }

        /** Represents a CreateTokenRequest. */
        class CreateTokenRequest {

            /**
             * Constructs a new CreateTokenRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.CreateTokenRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** CreateTokenRequest identity. */
            identity: string;

            /** CreateTokenRequest roles. */
            roles: string[];

            /** CreateTokenRequest ttlMs. */
            ttlMs: Long;

            /**
             * Creates a new CreateTokenRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns CreateTokenRequest instance
             */
            static create(properties: palisade.v1.CreateTokenRequest.$Shape): palisade.v1.CreateTokenRequest & palisade.v1.CreateTokenRequest.$Shape;
            static create(properties?: palisade.v1.CreateTokenRequest.$Properties): palisade.v1.CreateTokenRequest;

            /**
             * Encodes the specified CreateTokenRequest message. Does not implicitly {@link palisade.v1.CreateTokenRequest.verify|verify} messages.
             * @param message CreateTokenRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.CreateTokenRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified CreateTokenRequest message, length delimited. Does not implicitly {@link palisade.v1.CreateTokenRequest.verify|verify} messages.
             * @param message CreateTokenRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.CreateTokenRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CreateTokenRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.CreateTokenRequest & palisade.v1.CreateTokenRequest.$Shape} CreateTokenRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.CreateTokenRequest & palisade.v1.CreateTokenRequest.$Shape;

            /**
             * Decodes a CreateTokenRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.CreateTokenRequest & palisade.v1.CreateTokenRequest.$Shape} CreateTokenRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.CreateTokenRequest & palisade.v1.CreateTokenRequest.$Shape;

            /**
             * Verifies a CreateTokenRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a CreateTokenRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns CreateTokenRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.CreateTokenRequest;

            /**
             * Creates a plain object from a CreateTokenRequest message. Also converts values to other types if specified.
             * @param message CreateTokenRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.CreateTokenRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this CreateTokenRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for CreateTokenRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace CreateTokenRequest {

            /** Properties of a CreateTokenRequest. */
            interface $Properties {

                /** CreateTokenRequest identity */
                identity?: (string|null);

                /** CreateTokenRequest roles */
                roles?: (string[]|null);

                /** CreateTokenRequest ttlMs */
                ttlMs?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a CreateTokenRequest. */
            type $Shape = palisade.v1.CreateTokenRequest.$Properties;
        }

        /**
         * Properties of a CreateTokenResponse.
         * @deprecated Use palisade.v1.CreateTokenResponse.$Properties instead.
         */
        interface ICreateTokenResponse extends palisade.v1.CreateTokenResponse.$Properties {
        }

        /** Represents a CreateTokenResponse. */
        class CreateTokenResponse {

            /**
             * Constructs a new CreateTokenResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.CreateTokenResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** CreateTokenResponse tokenId. */
            tokenId: string;

            /** CreateTokenResponse secret. */
            secret: string;

            /** CreateTokenResponse expiresAtMs. */
            expiresAtMs: Long;

            /**
             * Creates a new CreateTokenResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns CreateTokenResponse instance
             */
            static create(properties: palisade.v1.CreateTokenResponse.$Shape): palisade.v1.CreateTokenResponse & palisade.v1.CreateTokenResponse.$Shape;
            static create(properties?: palisade.v1.CreateTokenResponse.$Properties): palisade.v1.CreateTokenResponse;

            /**
             * Encodes the specified CreateTokenResponse message. Does not implicitly {@link palisade.v1.CreateTokenResponse.verify|verify} messages.
             * @param message CreateTokenResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.CreateTokenResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified CreateTokenResponse message, length delimited. Does not implicitly {@link palisade.v1.CreateTokenResponse.verify|verify} messages.
             * @param message CreateTokenResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.CreateTokenResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CreateTokenResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.CreateTokenResponse & palisade.v1.CreateTokenResponse.$Shape} CreateTokenResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.CreateTokenResponse & palisade.v1.CreateTokenResponse.$Shape;

            /**
             * Decodes a CreateTokenResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.CreateTokenResponse & palisade.v1.CreateTokenResponse.$Shape} CreateTokenResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.CreateTokenResponse & palisade.v1.CreateTokenResponse.$Shape;

            /**
             * Verifies a CreateTokenResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a CreateTokenResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns CreateTokenResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.CreateTokenResponse;

            /**
             * Creates a plain object from a CreateTokenResponse message. Also converts values to other types if specified.
             * @param message CreateTokenResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.CreateTokenResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this CreateTokenResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for CreateTokenResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace CreateTokenResponse {

            /** Properties of a CreateTokenResponse. */
            interface $Properties {

                /** CreateTokenResponse tokenId */
                tokenId?: (string|null);

                /** CreateTokenResponse secret */
                secret?: (string|null);

                /** CreateTokenResponse expiresAtMs */
                expiresAtMs?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a CreateTokenResponse. */
            type $Shape = palisade.v1.CreateTokenResponse.$Properties;
        }

        /**
         * Properties of a ListTokensRequest.
         * @deprecated Use palisade.v1.ListTokensRequest.$Properties instead.
         */
        interface IListTokensRequest extends palisade.v1.ListTokensRequest.$Properties {
        }

        /** Represents a ListTokensRequest. */
        class ListTokensRequest {

            /**
             * Constructs a new ListTokensRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ListTokensRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new ListTokensRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ListTokensRequest instance
             */
            static create(properties: palisade.v1.ListTokensRequest.$Shape): palisade.v1.ListTokensRequest & palisade.v1.ListTokensRequest.$Shape;
            static create(properties?: palisade.v1.ListTokensRequest.$Properties): palisade.v1.ListTokensRequest;

            /**
             * Encodes the specified ListTokensRequest message. Does not implicitly {@link palisade.v1.ListTokensRequest.verify|verify} messages.
             * @param message ListTokensRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ListTokensRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ListTokensRequest message, length delimited. Does not implicitly {@link palisade.v1.ListTokensRequest.verify|verify} messages.
             * @param message ListTokensRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ListTokensRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ListTokensRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ListTokensRequest & palisade.v1.ListTokensRequest.$Shape} ListTokensRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ListTokensRequest & palisade.v1.ListTokensRequest.$Shape;

            /**
             * Decodes a ListTokensRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ListTokensRequest & palisade.v1.ListTokensRequest.$Shape} ListTokensRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ListTokensRequest & palisade.v1.ListTokensRequest.$Shape;

            /**
             * Verifies a ListTokensRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ListTokensRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ListTokensRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ListTokensRequest;

            /**
             * Creates a plain object from a ListTokensRequest message. Also converts values to other types if specified.
             * @param message ListTokensRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ListTokensRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ListTokensRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ListTokensRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListTokensRequest {

            /** Properties of a ListTokensRequest. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ListTokensRequest. */
            type $Shape = palisade.v1.ListTokensRequest.$Properties;
        }

        /**
         * Properties of a TokenInfo.
         * @deprecated Use palisade.v1.TokenInfo.$Properties instead.
         */
        interface ITokenInfo extends palisade.v1.TokenInfo.$Properties {
        }

        /** Represents a TokenInfo. */
        class TokenInfo {

            /**
             * Constructs a new TokenInfo.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.TokenInfo.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** TokenInfo tokenId. */
            tokenId: string;

            /** TokenInfo identity. */
            identity: string;

            /** TokenInfo roles. */
            roles: string[];

            /** TokenInfo createdIndex. */
            createdIndex: Long;

            /** TokenInfo createdMs. */
            createdMs: Long;

            /** TokenInfo expiresAtMs. */
            expiresAtMs: Long;

            /**
             * Creates a new TokenInfo instance using the specified properties.
             * @param [properties] Properties to set
             * @returns TokenInfo instance
             */
            static create(properties: palisade.v1.TokenInfo.$Shape): palisade.v1.TokenInfo & palisade.v1.TokenInfo.$Shape;
            static create(properties?: palisade.v1.TokenInfo.$Properties): palisade.v1.TokenInfo;

            /**
             * Encodes the specified TokenInfo message. Does not implicitly {@link palisade.v1.TokenInfo.verify|verify} messages.
             * @param message TokenInfo message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.TokenInfo.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified TokenInfo message, length delimited. Does not implicitly {@link palisade.v1.TokenInfo.verify|verify} messages.
             * @param message TokenInfo message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.TokenInfo.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a TokenInfo message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.TokenInfo & palisade.v1.TokenInfo.$Shape} TokenInfo
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.TokenInfo & palisade.v1.TokenInfo.$Shape;

            /**
             * Decodes a TokenInfo message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.TokenInfo & palisade.v1.TokenInfo.$Shape} TokenInfo
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.TokenInfo & palisade.v1.TokenInfo.$Shape;

            /**
             * Verifies a TokenInfo message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a TokenInfo message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns TokenInfo
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.TokenInfo;

            /**
             * Creates a plain object from a TokenInfo message. Also converts values to other types if specified.
             * @param message TokenInfo
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.TokenInfo, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this TokenInfo to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for TokenInfo
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace TokenInfo {

            /** Properties of a TokenInfo. */
            interface $Properties {

                /** TokenInfo tokenId */
                tokenId?: (string|null);

                /** TokenInfo identity */
                identity?: (string|null);

                /** TokenInfo roles */
                roles?: (string[]|null);

                /** TokenInfo createdIndex */
                createdIndex?: (Long|null);

                /** TokenInfo createdMs */
                createdMs?: (Long|null);

                /** TokenInfo expiresAtMs */
                expiresAtMs?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a TokenInfo. */
            type $Shape = palisade.v1.TokenInfo.$Properties;
        }

        /**
         * Properties of a ListTokensResponse.
         * @deprecated Use palisade.v1.ListTokensResponse.$Properties instead.
         */
        interface IListTokensResponse extends palisade.v1.ListTokensResponse.$Properties {
        }

        /** Represents a ListTokensResponse. */
        class ListTokensResponse {

            /**
             * Constructs a new ListTokensResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ListTokensResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ListTokensResponse tokens. */
            tokens: palisade.v1.TokenInfo.$Properties[];

            /**
             * Creates a new ListTokensResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ListTokensResponse instance
             */
            static create(properties: palisade.v1.ListTokensResponse.$Shape): palisade.v1.ListTokensResponse & palisade.v1.ListTokensResponse.$Shape;
            static create(properties?: palisade.v1.ListTokensResponse.$Properties): palisade.v1.ListTokensResponse;

            /**
             * Encodes the specified ListTokensResponse message. Does not implicitly {@link palisade.v1.ListTokensResponse.verify|verify} messages.
             * @param message ListTokensResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ListTokensResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ListTokensResponse message, length delimited. Does not implicitly {@link palisade.v1.ListTokensResponse.verify|verify} messages.
             * @param message ListTokensResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ListTokensResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ListTokensResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ListTokensResponse & palisade.v1.ListTokensResponse.$Shape} ListTokensResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ListTokensResponse & palisade.v1.ListTokensResponse.$Shape;

            /**
             * Decodes a ListTokensResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ListTokensResponse & palisade.v1.ListTokensResponse.$Shape} ListTokensResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ListTokensResponse & palisade.v1.ListTokensResponse.$Shape;

            /**
             * Verifies a ListTokensResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ListTokensResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ListTokensResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ListTokensResponse;

            /**
             * Creates a plain object from a ListTokensResponse message. Also converts values to other types if specified.
             * @param message ListTokensResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ListTokensResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ListTokensResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ListTokensResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListTokensResponse {

            /** Properties of a ListTokensResponse. */
            interface $Properties {

                /** ListTokensResponse tokens */
                tokens?: (palisade.v1.TokenInfo.$Properties[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ListTokensResponse. */
            type $Shape = palisade.v1.ListTokensResponse.$Properties;
        }

        /**
         * Properties of a RevokeTokenRequest.
         * @deprecated Use palisade.v1.RevokeTokenRequest.$Properties instead.
         */
        interface IRevokeTokenRequest extends palisade.v1.RevokeTokenRequest.$Properties {
        }

        /** Represents a RevokeTokenRequest. */
        class RevokeTokenRequest {

            /**
             * Constructs a new RevokeTokenRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.RevokeTokenRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** RevokeTokenRequest tokenId. */
            tokenId: string;

            /**
             * Creates a new RevokeTokenRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns RevokeTokenRequest instance
             */
            static create(properties: palisade.v1.RevokeTokenRequest.$Shape): palisade.v1.RevokeTokenRequest & palisade.v1.RevokeTokenRequest.$Shape;
            static create(properties?: palisade.v1.RevokeTokenRequest.$Properties): palisade.v1.RevokeTokenRequest;

            /**
             * Encodes the specified RevokeTokenRequest message. Does not implicitly {@link palisade.v1.RevokeTokenRequest.verify|verify} messages.
             * @param message RevokeTokenRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.RevokeTokenRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified RevokeTokenRequest message, length delimited. Does not implicitly {@link palisade.v1.RevokeTokenRequest.verify|verify} messages.
             * @param message RevokeTokenRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.RevokeTokenRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a RevokeTokenRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.RevokeTokenRequest & palisade.v1.RevokeTokenRequest.$Shape} RevokeTokenRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.RevokeTokenRequest & palisade.v1.RevokeTokenRequest.$Shape;

            /**
             * Decodes a RevokeTokenRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.RevokeTokenRequest & palisade.v1.RevokeTokenRequest.$Shape} RevokeTokenRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.RevokeTokenRequest & palisade.v1.RevokeTokenRequest.$Shape;

            /**
             * Verifies a RevokeTokenRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a RevokeTokenRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns RevokeTokenRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.RevokeTokenRequest;

            /**
             * Creates a plain object from a RevokeTokenRequest message. Also converts values to other types if specified.
             * @param message RevokeTokenRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.RevokeTokenRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this RevokeTokenRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for RevokeTokenRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace RevokeTokenRequest {

            /** Properties of a RevokeTokenRequest. */
            interface $Properties {

                /** RevokeTokenRequest tokenId */
                tokenId?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a RevokeTokenRequest. */
            type $Shape = palisade.v1.RevokeTokenRequest.$Properties;
        }

        /**
         * Properties of a RevokeTokenResponse.
         * @deprecated Use palisade.v1.RevokeTokenResponse.$Properties instead.
         */
        interface IRevokeTokenResponse extends palisade.v1.RevokeTokenResponse.$Properties {
        }

        /** Represents a RevokeTokenResponse. */
        class RevokeTokenResponse {

            /**
             * Constructs a new RevokeTokenResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.RevokeTokenResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** RevokeTokenResponse index. */
            index: Long;

            /**
             * Creates a new RevokeTokenResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns RevokeTokenResponse instance
             */
            static create(properties: palisade.v1.RevokeTokenResponse.$Shape): palisade.v1.RevokeTokenResponse & palisade.v1.RevokeTokenResponse.$Shape;
            static create(properties?: palisade.v1.RevokeTokenResponse.$Properties): palisade.v1.RevokeTokenResponse;

            /**
             * Encodes the specified RevokeTokenResponse message. Does not implicitly {@link palisade.v1.RevokeTokenResponse.verify|verify} messages.
             * @param message RevokeTokenResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.RevokeTokenResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified RevokeTokenResponse message, length delimited. Does not implicitly {@link palisade.v1.RevokeTokenResponse.verify|verify} messages.
             * @param message RevokeTokenResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.RevokeTokenResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a RevokeTokenResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.RevokeTokenResponse & palisade.v1.RevokeTokenResponse.$Shape} RevokeTokenResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.RevokeTokenResponse & palisade.v1.RevokeTokenResponse.$Shape;

            /**
             * Decodes a RevokeTokenResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.RevokeTokenResponse & palisade.v1.RevokeTokenResponse.$Shape} RevokeTokenResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.RevokeTokenResponse & palisade.v1.RevokeTokenResponse.$Shape;

            /**
             * Verifies a RevokeTokenResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a RevokeTokenResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns RevokeTokenResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.RevokeTokenResponse;

            /**
             * Creates a plain object from a RevokeTokenResponse message. Also converts values to other types if specified.
             * @param message RevokeTokenResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.RevokeTokenResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this RevokeTokenResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for RevokeTokenResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace RevokeTokenResponse {

            /** Properties of a RevokeTokenResponse. */
            interface $Properties {

                /** RevokeTokenResponse index */
                index?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a RevokeTokenResponse. */
            type $Shape = palisade.v1.RevokeTokenResponse.$Properties;
        }

        /**
         * Properties of a WhoAmIRequest.
         * @deprecated Use palisade.v1.WhoAmIRequest.$Properties instead.
         */
        interface IWhoAmIRequest extends palisade.v1.WhoAmIRequest.$Properties {
        }

        /** Represents a WhoAmIRequest. */
        class WhoAmIRequest {

            /**
             * Constructs a new WhoAmIRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.WhoAmIRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new WhoAmIRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns WhoAmIRequest instance
             */
            static create(properties: palisade.v1.WhoAmIRequest.$Shape): palisade.v1.WhoAmIRequest & palisade.v1.WhoAmIRequest.$Shape;
            static create(properties?: palisade.v1.WhoAmIRequest.$Properties): palisade.v1.WhoAmIRequest;

            /**
             * Encodes the specified WhoAmIRequest message. Does not implicitly {@link palisade.v1.WhoAmIRequest.verify|verify} messages.
             * @param message WhoAmIRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.WhoAmIRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified WhoAmIRequest message, length delimited. Does not implicitly {@link palisade.v1.WhoAmIRequest.verify|verify} messages.
             * @param message WhoAmIRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.WhoAmIRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a WhoAmIRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.WhoAmIRequest & palisade.v1.WhoAmIRequest.$Shape} WhoAmIRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.WhoAmIRequest & palisade.v1.WhoAmIRequest.$Shape;

            /**
             * Decodes a WhoAmIRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.WhoAmIRequest & palisade.v1.WhoAmIRequest.$Shape} WhoAmIRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.WhoAmIRequest & palisade.v1.WhoAmIRequest.$Shape;

            /**
             * Verifies a WhoAmIRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a WhoAmIRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns WhoAmIRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.WhoAmIRequest;

            /**
             * Creates a plain object from a WhoAmIRequest message. Also converts values to other types if specified.
             * @param message WhoAmIRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.WhoAmIRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this WhoAmIRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for WhoAmIRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace WhoAmIRequest {

            /** Properties of a WhoAmIRequest. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a WhoAmIRequest. */
            type $Shape = palisade.v1.WhoAmIRequest.$Properties;
        }

        /**
         * Properties of a Grant.
         * @deprecated Use palisade.v1.Grant.$Properties instead.
         */
        interface IGrant extends palisade.v1.Grant.$Properties {
        }

        /** Represents a Grant. */
        class Grant {

            /**
             * Constructs a new Grant.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.Grant.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Grant prefix. */
            prefix: string;

            /** Grant actions. */
            actions: string[];

            /**
             * Creates a new Grant instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Grant instance
             */
            static create(properties: palisade.v1.Grant.$Shape): palisade.v1.Grant & palisade.v1.Grant.$Shape;
            static create(properties?: palisade.v1.Grant.$Properties): palisade.v1.Grant;

            /**
             * Encodes the specified Grant message. Does not implicitly {@link palisade.v1.Grant.verify|verify} messages.
             * @param message Grant message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.Grant.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Grant message, length delimited. Does not implicitly {@link palisade.v1.Grant.verify|verify} messages.
             * @param message Grant message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.Grant.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Grant message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.Grant & palisade.v1.Grant.$Shape} Grant
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.Grant & palisade.v1.Grant.$Shape;

            /**
             * Decodes a Grant message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.Grant & palisade.v1.Grant.$Shape} Grant
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.Grant & palisade.v1.Grant.$Shape;

            /**
             * Verifies a Grant message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Grant message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Grant
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.Grant;

            /**
             * Creates a plain object from a Grant message. Also converts values to other types if specified.
             * @param message Grant
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.Grant, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Grant to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Grant
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Grant {

            /** Properties of a Grant. */
            interface $Properties {

                /** Grant prefix */
                prefix?: (string|null);

                /** Grant actions */
                actions?: (string[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Grant. */
            type $Shape = palisade.v1.Grant.$Properties;
        }

        /**
         * Properties of a Quota.
         * @deprecated Use palisade.v1.Quota.$Properties instead.
         */
        interface IQuota extends palisade.v1.Quota.$Properties {
        }

        /** Represents a Quota. */
        class Quota {

            /**
             * Constructs a new Quota.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.Quota.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Quota name. */
            name: string;

            /** Quota limit. */
            limit: Long;

            /** Quota used. */
            used: Long;

            /**
             * Creates a new Quota instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Quota instance
             */
            static create(properties: palisade.v1.Quota.$Shape): palisade.v1.Quota & palisade.v1.Quota.$Shape;
            static create(properties?: palisade.v1.Quota.$Properties): palisade.v1.Quota;

            /**
             * Encodes the specified Quota message. Does not implicitly {@link palisade.v1.Quota.verify|verify} messages.
             * @param message Quota message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.Quota.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Quota message, length delimited. Does not implicitly {@link palisade.v1.Quota.verify|verify} messages.
             * @param message Quota message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.Quota.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Quota message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.Quota & palisade.v1.Quota.$Shape} Quota
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.Quota & palisade.v1.Quota.$Shape;

            /**
             * Decodes a Quota message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.Quota & palisade.v1.Quota.$Shape} Quota
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.Quota & palisade.v1.Quota.$Shape;

            /**
             * Verifies a Quota message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Quota message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Quota
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.Quota;

            /**
             * Creates a plain object from a Quota message. Also converts values to other types if specified.
             * @param message Quota
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.Quota, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Quota to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Quota
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Quota {

            /** Properties of a Quota. */
            interface $Properties {

                /** Quota name */
                name?: (string|null);

                /** Quota limit */
                limit?: (Long|null);

                /** Quota used */
                used?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Quota. */
            type $Shape = palisade.v1.Quota.$Properties;
        }

        /**
         * Properties of a WhoAmIResponse.
         * @deprecated Use palisade.v1.WhoAmIResponse.$Properties instead.
         */
        interface IWhoAmIResponse extends palisade.v1.WhoAmIResponse.$Properties {
        }

        /** Represents a WhoAmIResponse. */
        class WhoAmIResponse {

            /**
             * Constructs a new WhoAmIResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.WhoAmIResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** WhoAmIResponse identity. */
            identity: string;

            /** WhoAmIResponse via. */
            via: string;

            /** WhoAmIResponse tokenId. */
            tokenId: string;

            /** WhoAmIResponse roles. */
            roles: string[];

            /** WhoAmIResponse admin. */
            admin: boolean;

            /** WhoAmIResponse grants. */
            grants: palisade.v1.Grant.$Properties[];

            /** WhoAmIResponse quotas. */
            quotas: palisade.v1.Quota.$Properties[];

            /** WhoAmIResponse policyVersion. */
            policyVersion: Long;

            /**
             * Creates a new WhoAmIResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns WhoAmIResponse instance
             */
            static create(properties: palisade.v1.WhoAmIResponse.$Shape): palisade.v1.WhoAmIResponse & palisade.v1.WhoAmIResponse.$Shape;
            static create(properties?: palisade.v1.WhoAmIResponse.$Properties): palisade.v1.WhoAmIResponse;

            /**
             * Encodes the specified WhoAmIResponse message. Does not implicitly {@link palisade.v1.WhoAmIResponse.verify|verify} messages.
             * @param message WhoAmIResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.WhoAmIResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified WhoAmIResponse message, length delimited. Does not implicitly {@link palisade.v1.WhoAmIResponse.verify|verify} messages.
             * @param message WhoAmIResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.WhoAmIResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a WhoAmIResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.WhoAmIResponse & palisade.v1.WhoAmIResponse.$Shape} WhoAmIResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.WhoAmIResponse & palisade.v1.WhoAmIResponse.$Shape;

            /**
             * Decodes a WhoAmIResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.WhoAmIResponse & palisade.v1.WhoAmIResponse.$Shape} WhoAmIResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.WhoAmIResponse & palisade.v1.WhoAmIResponse.$Shape;

            /**
             * Verifies a WhoAmIResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a WhoAmIResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns WhoAmIResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.WhoAmIResponse;

            /**
             * Creates a plain object from a WhoAmIResponse message. Also converts values to other types if specified.
             * @param message WhoAmIResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.WhoAmIResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this WhoAmIResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for WhoAmIResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace WhoAmIResponse {

            /** Properties of a WhoAmIResponse. */
            interface $Properties {

                /** WhoAmIResponse identity */
                identity?: (string|null);

                /** WhoAmIResponse via */
                via?: (string|null);

                /** WhoAmIResponse tokenId */
                tokenId?: (string|null);

                /** WhoAmIResponse roles */
                roles?: (string[]|null);

                /** WhoAmIResponse admin */
                admin?: (boolean|null);

                /** WhoAmIResponse grants */
                grants?: (palisade.v1.Grant.$Properties[]|null);

                /** WhoAmIResponse quotas */
                quotas?: (palisade.v1.Quota.$Properties[]|null);

                /** WhoAmIResponse policyVersion */
                policyVersion?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a WhoAmIResponse. */
            type $Shape = palisade.v1.WhoAmIResponse.$Properties;
        }

        /**
         * Properties of a CanRequest.
         * @deprecated Use palisade.v1.CanRequest.$Properties instead.
         */
        interface ICanRequest extends palisade.v1.CanRequest.$Properties {
        }

        /** Represents a CanRequest. */
        class CanRequest {

            /**
             * Constructs a new CanRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.CanRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** CanRequest identity. */
            identity: string;

            /** CanRequest action. */
            action: string;

            /** CanRequest lock. */
            lock: string;

            /**
             * Creates a new CanRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns CanRequest instance
             */
            static create(properties: palisade.v1.CanRequest.$Shape): palisade.v1.CanRequest & palisade.v1.CanRequest.$Shape;
            static create(properties?: palisade.v1.CanRequest.$Properties): palisade.v1.CanRequest;

            /**
             * Encodes the specified CanRequest message. Does not implicitly {@link palisade.v1.CanRequest.verify|verify} messages.
             * @param message CanRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.CanRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified CanRequest message, length delimited. Does not implicitly {@link palisade.v1.CanRequest.verify|verify} messages.
             * @param message CanRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.CanRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CanRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.CanRequest & palisade.v1.CanRequest.$Shape} CanRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.CanRequest & palisade.v1.CanRequest.$Shape;

            /**
             * Decodes a CanRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.CanRequest & palisade.v1.CanRequest.$Shape} CanRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.CanRequest & palisade.v1.CanRequest.$Shape;

            /**
             * Verifies a CanRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a CanRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns CanRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.CanRequest;

            /**
             * Creates a plain object from a CanRequest message. Also converts values to other types if specified.
             * @param message CanRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.CanRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this CanRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for CanRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace CanRequest {

            /** Properties of a CanRequest. */
            interface $Properties {

                /** CanRequest identity */
                identity?: (string|null);

                /** CanRequest action */
                action?: (string|null);

                /** CanRequest lock */
                lock?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a CanRequest. */
            type $Shape = palisade.v1.CanRequest.$Properties;
        }

        /**
         * Properties of a CanResponse.
         * @deprecated Use palisade.v1.CanResponse.$Properties instead.
         */
        interface ICanResponse extends palisade.v1.CanResponse.$Properties {
        }

        /** Represents a CanResponse. */
        class CanResponse {

            /**
             * Constructs a new CanResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.CanResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** CanResponse allowed. */
            allowed: boolean;

            /** CanResponse reason. */
            reason: string;

            /** CanResponse policyVersion. */
            policyVersion: Long;

            /**
             * Creates a new CanResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns CanResponse instance
             */
            static create(properties: palisade.v1.CanResponse.$Shape): palisade.v1.CanResponse & palisade.v1.CanResponse.$Shape;
            static create(properties?: palisade.v1.CanResponse.$Properties): palisade.v1.CanResponse;

            /**
             * Encodes the specified CanResponse message. Does not implicitly {@link palisade.v1.CanResponse.verify|verify} messages.
             * @param message CanResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.CanResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified CanResponse message, length delimited. Does not implicitly {@link palisade.v1.CanResponse.verify|verify} messages.
             * @param message CanResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.CanResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CanResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.CanResponse & palisade.v1.CanResponse.$Shape} CanResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.CanResponse & palisade.v1.CanResponse.$Shape;

            /**
             * Decodes a CanResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.CanResponse & palisade.v1.CanResponse.$Shape} CanResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.CanResponse & palisade.v1.CanResponse.$Shape;

            /**
             * Verifies a CanResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a CanResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns CanResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.CanResponse;

            /**
             * Creates a plain object from a CanResponse message. Also converts values to other types if specified.
             * @param message CanResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.CanResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this CanResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for CanResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace CanResponse {

            /** Properties of a CanResponse. */
            interface $Properties {

                /** CanResponse allowed */
                allowed?: (boolean|null);

                /** CanResponse reason */
                reason?: (string|null);

                /** CanResponse policyVersion */
                policyVersion?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a CanResponse. */
            type $Shape = palisade.v1.CanResponse.$Properties;
        }

        /** NodeRole enum. */
        enum NodeRole {

            /** NODE_ROLE_UNSPECIFIED value */
            NODE_ROLE_UNSPECIFIED = 0,

            /** NODE_ROLE_FOLLOWER value */
            NODE_ROLE_FOLLOWER = 1,

            /** NODE_ROLE_PRECANDIDATE value */
            NODE_ROLE_PRECANDIDATE = 2,

            /** NODE_ROLE_CANDIDATE value */
            NODE_ROLE_CANDIDATE = 3,

            /** NODE_ROLE_LEADER value */
            NODE_ROLE_LEADER = 4
        }

        /** MemberKind enum. */
        enum MemberKind {

            /** MEMBER_KIND_UNSPECIFIED value */
            MEMBER_KIND_UNSPECIFIED = 0,

            /** MEMBER_KIND_VOTER value */
            MEMBER_KIND_VOTER = 1,

            /** MEMBER_KIND_LEARNER value */
            MEMBER_KIND_LEARNER = 2
        }

        /**
         * Properties of a Member.
         * @deprecated Use palisade.v1.Member.$Properties instead.
         */
        interface IMember extends palisade.v1.Member.$Properties {
        }

        /** Represents a Member. */
        class Member {

            /**
             * Constructs a new Member.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.Member.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Member nodeId. */
            nodeId: Long;

            /** Member address. */
            address: string;

            /** Member kind. */
            kind: palisade.v1.MemberKind;

            /** Member reachable. */
            reachable: boolean;

            /** Member matchIndex. */
            matchIndex: Long;

            /** Member clientAddress. */
            clientAddress: string;

            /**
             * Creates a new Member instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Member instance
             */
            static create(properties: palisade.v1.Member.$Shape): palisade.v1.Member & palisade.v1.Member.$Shape;
            static create(properties?: palisade.v1.Member.$Properties): palisade.v1.Member;

            /**
             * Encodes the specified Member message. Does not implicitly {@link palisade.v1.Member.verify|verify} messages.
             * @param message Member message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.Member.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Member message, length delimited. Does not implicitly {@link palisade.v1.Member.verify|verify} messages.
             * @param message Member message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.Member.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Member message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.Member & palisade.v1.Member.$Shape} Member
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.Member & palisade.v1.Member.$Shape;

            /**
             * Decodes a Member message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.Member & palisade.v1.Member.$Shape} Member
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.Member & palisade.v1.Member.$Shape;

            /**
             * Verifies a Member message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Member message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Member
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.Member;

            /**
             * Creates a plain object from a Member message. Also converts values to other types if specified.
             * @param message Member
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.Member, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Member to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Member
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Member {

            /** Properties of a Member. */
            interface $Properties {

                /** Member nodeId */
                nodeId?: (Long|null);

                /** Member address */
                address?: (string|null);

                /** Member kind */
                kind?: (palisade.v1.MemberKind|null);

                /** Member reachable */
                reachable?: (boolean|null);

                /** Member matchIndex */
                matchIndex?: (Long|null);

                /** Member clientAddress */
                clientAddress?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Member. */
            type $Shape = palisade.v1.Member.$Properties;
        }

        /**
         * Properties of a StatusRequest.
         * @deprecated Use palisade.v1.StatusRequest.$Properties instead.
         */
        interface IStatusRequest extends palisade.v1.StatusRequest.$Properties {
        }

        /** Represents a StatusRequest. */
        class StatusRequest {

            /**
             * Constructs a new StatusRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.StatusRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new StatusRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns StatusRequest instance
             */
            static create(properties: palisade.v1.StatusRequest.$Shape): palisade.v1.StatusRequest & palisade.v1.StatusRequest.$Shape;
            static create(properties?: palisade.v1.StatusRequest.$Properties): palisade.v1.StatusRequest;

            /**
             * Encodes the specified StatusRequest message. Does not implicitly {@link palisade.v1.StatusRequest.verify|verify} messages.
             * @param message StatusRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.StatusRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified StatusRequest message, length delimited. Does not implicitly {@link palisade.v1.StatusRequest.verify|verify} messages.
             * @param message StatusRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.StatusRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a StatusRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.StatusRequest & palisade.v1.StatusRequest.$Shape} StatusRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.StatusRequest & palisade.v1.StatusRequest.$Shape;

            /**
             * Decodes a StatusRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.StatusRequest & palisade.v1.StatusRequest.$Shape} StatusRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.StatusRequest & palisade.v1.StatusRequest.$Shape;

            /**
             * Verifies a StatusRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a StatusRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns StatusRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.StatusRequest;

            /**
             * Creates a plain object from a StatusRequest message. Also converts values to other types if specified.
             * @param message StatusRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.StatusRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this StatusRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for StatusRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace StatusRequest {

            /** Properties of a StatusRequest. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a StatusRequest. */
            type $Shape = palisade.v1.StatusRequest.$Properties;
        }

        /**
         * Properties of a StatusResponse.
         * @deprecated Use palisade.v1.StatusResponse.$Properties instead.
         */
        interface IStatusResponse extends palisade.v1.StatusResponse.$Properties {
        }

        /** Represents a StatusResponse. */
        class StatusResponse {

            /**
             * Constructs a new StatusResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.StatusResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** StatusResponse nodeId. */
            nodeId: Long;

            /** StatusResponse role. */
            role: palisade.v1.NodeRole;

            /** StatusResponse term. */
            term: Long;

            /** StatusResponse leaderId. */
            leaderId: Long;

            /** StatusResponse commitIndex. */
            commitIndex: Long;

            /** StatusResponse appliedIndex. */
            appliedIndex: Long;

            /** StatusResponse lastIndex. */
            lastIndex: Long;

            /** StatusResponse snapshotIndex. */
            snapshotIndex: Long;

            /** StatusResponse members. */
            members: palisade.v1.Member.$Properties[];

            /** StatusResponse clusterId. */
            clusterId: string;

            /** StatusResponse epoch. */
            epoch: Long;

            /** StatusResponse metricsAddress. */
            metricsAddress: string;

            /**
             * Creates a new StatusResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns StatusResponse instance
             */
            static create(properties: palisade.v1.StatusResponse.$Shape): palisade.v1.StatusResponse & palisade.v1.StatusResponse.$Shape;
            static create(properties?: palisade.v1.StatusResponse.$Properties): palisade.v1.StatusResponse;

            /**
             * Encodes the specified StatusResponse message. Does not implicitly {@link palisade.v1.StatusResponse.verify|verify} messages.
             * @param message StatusResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.StatusResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified StatusResponse message, length delimited. Does not implicitly {@link palisade.v1.StatusResponse.verify|verify} messages.
             * @param message StatusResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.StatusResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a StatusResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.StatusResponse & palisade.v1.StatusResponse.$Shape} StatusResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.StatusResponse & palisade.v1.StatusResponse.$Shape;

            /**
             * Decodes a StatusResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.StatusResponse & palisade.v1.StatusResponse.$Shape} StatusResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.StatusResponse & palisade.v1.StatusResponse.$Shape;

            /**
             * Verifies a StatusResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a StatusResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns StatusResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.StatusResponse;

            /**
             * Creates a plain object from a StatusResponse message. Also converts values to other types if specified.
             * @param message StatusResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.StatusResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this StatusResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for StatusResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace StatusResponse {

            /** Properties of a StatusResponse. */
            interface $Properties {

                /** StatusResponse nodeId */
                nodeId?: (Long|null);

                /** StatusResponse role */
                role?: (palisade.v1.NodeRole|null);

                /** StatusResponse term */
                term?: (Long|null);

                /** StatusResponse leaderId */
                leaderId?: (Long|null);

                /** StatusResponse commitIndex */
                commitIndex?: (Long|null);

                /** StatusResponse appliedIndex */
                appliedIndex?: (Long|null);

                /** StatusResponse lastIndex */
                lastIndex?: (Long|null);

                /** StatusResponse snapshotIndex */
                snapshotIndex?: (Long|null);

                /** StatusResponse members */
                members?: (palisade.v1.Member.$Properties[]|null);

                /** StatusResponse clusterId */
                clusterId?: (string|null);

                /** StatusResponse epoch */
                epoch?: (Long|null);

                /** StatusResponse metricsAddress */
                metricsAddress?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a StatusResponse. */
            type $Shape = palisade.v1.StatusResponse.$Properties;
        }

        /**
         * Properties of a RevokeLockRequest.
         * @deprecated Use palisade.v1.RevokeLockRequest.$Properties instead.
         */
        interface IRevokeLockRequest extends palisade.v1.RevokeLockRequest.$Properties {
        }

        /** Represents a RevokeLockRequest. */
        class RevokeLockRequest {

            /**
             * Constructs a new RevokeLockRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.RevokeLockRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** RevokeLockRequest lock. */
            lock: string;

            /** RevokeLockRequest token. */
            token: Long;

            /**
             * Creates a new RevokeLockRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns RevokeLockRequest instance
             */
            static create(properties: palisade.v1.RevokeLockRequest.$Shape): palisade.v1.RevokeLockRequest & palisade.v1.RevokeLockRequest.$Shape;
            static create(properties?: palisade.v1.RevokeLockRequest.$Properties): palisade.v1.RevokeLockRequest;

            /**
             * Encodes the specified RevokeLockRequest message. Does not implicitly {@link palisade.v1.RevokeLockRequest.verify|verify} messages.
             * @param message RevokeLockRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.RevokeLockRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified RevokeLockRequest message, length delimited. Does not implicitly {@link palisade.v1.RevokeLockRequest.verify|verify} messages.
             * @param message RevokeLockRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.RevokeLockRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a RevokeLockRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.RevokeLockRequest & palisade.v1.RevokeLockRequest.$Shape} RevokeLockRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.RevokeLockRequest & palisade.v1.RevokeLockRequest.$Shape;

            /**
             * Decodes a RevokeLockRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.RevokeLockRequest & palisade.v1.RevokeLockRequest.$Shape} RevokeLockRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.RevokeLockRequest & palisade.v1.RevokeLockRequest.$Shape;

            /**
             * Verifies a RevokeLockRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a RevokeLockRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns RevokeLockRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.RevokeLockRequest;

            /**
             * Creates a plain object from a RevokeLockRequest message. Also converts values to other types if specified.
             * @param message RevokeLockRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.RevokeLockRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this RevokeLockRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for RevokeLockRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace RevokeLockRequest {

            /** Properties of a RevokeLockRequest. */
            interface $Properties {

                /** RevokeLockRequest lock */
                lock?: (string|null);

                /** RevokeLockRequest token */
                token?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a RevokeLockRequest. */
            type $Shape = palisade.v1.RevokeLockRequest.$Properties;
        }

        /**
         * Properties of a RevokeLockResponse.
         * @deprecated Use palisade.v1.RevokeLockResponse.$Properties instead.
         */
        interface IRevokeLockResponse extends palisade.v1.RevokeLockResponse.$Properties {
        }

        /** Represents a RevokeLockResponse. */
        class RevokeLockResponse {

            /**
             * Constructs a new RevokeLockResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.RevokeLockResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** RevokeLockResponse index. */
            index: Long;

            /**
             * Creates a new RevokeLockResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns RevokeLockResponse instance
             */
            static create(properties: palisade.v1.RevokeLockResponse.$Shape): palisade.v1.RevokeLockResponse & palisade.v1.RevokeLockResponse.$Shape;
            static create(properties?: palisade.v1.RevokeLockResponse.$Properties): palisade.v1.RevokeLockResponse;

            /**
             * Encodes the specified RevokeLockResponse message. Does not implicitly {@link palisade.v1.RevokeLockResponse.verify|verify} messages.
             * @param message RevokeLockResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.RevokeLockResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified RevokeLockResponse message, length delimited. Does not implicitly {@link palisade.v1.RevokeLockResponse.verify|verify} messages.
             * @param message RevokeLockResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.RevokeLockResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a RevokeLockResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.RevokeLockResponse & palisade.v1.RevokeLockResponse.$Shape} RevokeLockResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.RevokeLockResponse & palisade.v1.RevokeLockResponse.$Shape;

            /**
             * Decodes a RevokeLockResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.RevokeLockResponse & palisade.v1.RevokeLockResponse.$Shape} RevokeLockResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.RevokeLockResponse & palisade.v1.RevokeLockResponse.$Shape;

            /**
             * Verifies a RevokeLockResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a RevokeLockResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns RevokeLockResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.RevokeLockResponse;

            /**
             * Creates a plain object from a RevokeLockResponse message. Also converts values to other types if specified.
             * @param message RevokeLockResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.RevokeLockResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this RevokeLockResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for RevokeLockResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace RevokeLockResponse {

            /** Properties of a RevokeLockResponse. */
            interface $Properties {

                /** RevokeLockResponse index */
                index?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a RevokeLockResponse. */
            type $Shape = palisade.v1.RevokeLockResponse.$Properties;
        }

        /**
         * Properties of a TransferLeaderRequest.
         * @deprecated Use palisade.v1.TransferLeaderRequest.$Properties instead.
         */
        interface ITransferLeaderRequest extends palisade.v1.TransferLeaderRequest.$Properties {
        }

        /** Represents a TransferLeaderRequest. */
        class TransferLeaderRequest {

            /**
             * Constructs a new TransferLeaderRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.TransferLeaderRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** TransferLeaderRequest toNodeId. */
            toNodeId: Long;

            /**
             * Creates a new TransferLeaderRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns TransferLeaderRequest instance
             */
            static create(properties: palisade.v1.TransferLeaderRequest.$Shape): palisade.v1.TransferLeaderRequest & palisade.v1.TransferLeaderRequest.$Shape;
            static create(properties?: palisade.v1.TransferLeaderRequest.$Properties): palisade.v1.TransferLeaderRequest;

            /**
             * Encodes the specified TransferLeaderRequest message. Does not implicitly {@link palisade.v1.TransferLeaderRequest.verify|verify} messages.
             * @param message TransferLeaderRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.TransferLeaderRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified TransferLeaderRequest message, length delimited. Does not implicitly {@link palisade.v1.TransferLeaderRequest.verify|verify} messages.
             * @param message TransferLeaderRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.TransferLeaderRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a TransferLeaderRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.TransferLeaderRequest & palisade.v1.TransferLeaderRequest.$Shape} TransferLeaderRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.TransferLeaderRequest & palisade.v1.TransferLeaderRequest.$Shape;

            /**
             * Decodes a TransferLeaderRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.TransferLeaderRequest & palisade.v1.TransferLeaderRequest.$Shape} TransferLeaderRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.TransferLeaderRequest & palisade.v1.TransferLeaderRequest.$Shape;

            /**
             * Verifies a TransferLeaderRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a TransferLeaderRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns TransferLeaderRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.TransferLeaderRequest;

            /**
             * Creates a plain object from a TransferLeaderRequest message. Also converts values to other types if specified.
             * @param message TransferLeaderRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.TransferLeaderRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this TransferLeaderRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for TransferLeaderRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace TransferLeaderRequest {

            /** Properties of a TransferLeaderRequest. */
            interface $Properties {

                /** TransferLeaderRequest toNodeId */
                toNodeId?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a TransferLeaderRequest. */
            type $Shape = palisade.v1.TransferLeaderRequest.$Properties;
        }

        /**
         * Properties of a TransferLeaderResponse.
         * @deprecated Use palisade.v1.TransferLeaderResponse.$Properties instead.
         */
        interface ITransferLeaderResponse extends palisade.v1.TransferLeaderResponse.$Properties {
        }

        /** Represents a TransferLeaderResponse. */
        class TransferLeaderResponse {

            /**
             * Constructs a new TransferLeaderResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.TransferLeaderResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** TransferLeaderResponse leaderId. */
            leaderId: Long;

            /** TransferLeaderResponse term. */
            term: Long;

            /**
             * Creates a new TransferLeaderResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns TransferLeaderResponse instance
             */
            static create(properties: palisade.v1.TransferLeaderResponse.$Shape): palisade.v1.TransferLeaderResponse & palisade.v1.TransferLeaderResponse.$Shape;
            static create(properties?: palisade.v1.TransferLeaderResponse.$Properties): palisade.v1.TransferLeaderResponse;

            /**
             * Encodes the specified TransferLeaderResponse message. Does not implicitly {@link palisade.v1.TransferLeaderResponse.verify|verify} messages.
             * @param message TransferLeaderResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.TransferLeaderResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified TransferLeaderResponse message, length delimited. Does not implicitly {@link palisade.v1.TransferLeaderResponse.verify|verify} messages.
             * @param message TransferLeaderResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.TransferLeaderResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a TransferLeaderResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.TransferLeaderResponse & palisade.v1.TransferLeaderResponse.$Shape} TransferLeaderResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.TransferLeaderResponse & palisade.v1.TransferLeaderResponse.$Shape;

            /**
             * Decodes a TransferLeaderResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.TransferLeaderResponse & palisade.v1.TransferLeaderResponse.$Shape} TransferLeaderResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.TransferLeaderResponse & palisade.v1.TransferLeaderResponse.$Shape;

            /**
             * Verifies a TransferLeaderResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a TransferLeaderResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns TransferLeaderResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.TransferLeaderResponse;

            /**
             * Creates a plain object from a TransferLeaderResponse message. Also converts values to other types if specified.
             * @param message TransferLeaderResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.TransferLeaderResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this TransferLeaderResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for TransferLeaderResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace TransferLeaderResponse {

            /** Properties of a TransferLeaderResponse. */
            interface $Properties {

                /** TransferLeaderResponse leaderId */
                leaderId?: (Long|null);

                /** TransferLeaderResponse term */
                term?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a TransferLeaderResponse. */
            type $Shape = palisade.v1.TransferLeaderResponse.$Properties;
        }

        /**
         * Properties of a MemberListRequest.
         * @deprecated Use palisade.v1.MemberListRequest.$Properties instead.
         */
        interface IMemberListRequest extends palisade.v1.MemberListRequest.$Properties {
        }

        /** Represents a MemberListRequest. */
        class MemberListRequest {

            /**
             * Constructs a new MemberListRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.MemberListRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new MemberListRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns MemberListRequest instance
             */
            static create(properties: palisade.v1.MemberListRequest.$Shape): palisade.v1.MemberListRequest & palisade.v1.MemberListRequest.$Shape;
            static create(properties?: palisade.v1.MemberListRequest.$Properties): palisade.v1.MemberListRequest;

            /**
             * Encodes the specified MemberListRequest message. Does not implicitly {@link palisade.v1.MemberListRequest.verify|verify} messages.
             * @param message MemberListRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.MemberListRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified MemberListRequest message, length delimited. Does not implicitly {@link palisade.v1.MemberListRequest.verify|verify} messages.
             * @param message MemberListRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.MemberListRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a MemberListRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.MemberListRequest & palisade.v1.MemberListRequest.$Shape} MemberListRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.MemberListRequest & palisade.v1.MemberListRequest.$Shape;

            /**
             * Decodes a MemberListRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.MemberListRequest & palisade.v1.MemberListRequest.$Shape} MemberListRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.MemberListRequest & palisade.v1.MemberListRequest.$Shape;

            /**
             * Verifies a MemberListRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a MemberListRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns MemberListRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.MemberListRequest;

            /**
             * Creates a plain object from a MemberListRequest message. Also converts values to other types if specified.
             * @param message MemberListRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.MemberListRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this MemberListRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for MemberListRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace MemberListRequest {

            /** Properties of a MemberListRequest. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a MemberListRequest. */
            type $Shape = palisade.v1.MemberListRequest.$Properties;
        }

        /**
         * Properties of a MemberListResponse.
         * @deprecated Use palisade.v1.MemberListResponse.$Properties instead.
         */
        interface IMemberListResponse extends palisade.v1.MemberListResponse.$Properties {
        }

        /** Represents a MemberListResponse. */
        class MemberListResponse {

            /**
             * Constructs a new MemberListResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.MemberListResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** MemberListResponse members. */
            members: palisade.v1.Member.$Properties[];

            /**
             * Creates a new MemberListResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns MemberListResponse instance
             */
            static create(properties: palisade.v1.MemberListResponse.$Shape): palisade.v1.MemberListResponse & palisade.v1.MemberListResponse.$Shape;
            static create(properties?: palisade.v1.MemberListResponse.$Properties): palisade.v1.MemberListResponse;

            /**
             * Encodes the specified MemberListResponse message. Does not implicitly {@link palisade.v1.MemberListResponse.verify|verify} messages.
             * @param message MemberListResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.MemberListResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified MemberListResponse message, length delimited. Does not implicitly {@link palisade.v1.MemberListResponse.verify|verify} messages.
             * @param message MemberListResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.MemberListResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a MemberListResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.MemberListResponse & palisade.v1.MemberListResponse.$Shape} MemberListResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.MemberListResponse & palisade.v1.MemberListResponse.$Shape;

            /**
             * Decodes a MemberListResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.MemberListResponse & palisade.v1.MemberListResponse.$Shape} MemberListResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.MemberListResponse & palisade.v1.MemberListResponse.$Shape;

            /**
             * Verifies a MemberListResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a MemberListResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns MemberListResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.MemberListResponse;

            /**
             * Creates a plain object from a MemberListResponse message. Also converts values to other types if specified.
             * @param message MemberListResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.MemberListResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this MemberListResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for MemberListResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace MemberListResponse {

            /** Properties of a MemberListResponse. */
            interface $Properties {

                /** MemberListResponse members */
                members?: (palisade.v1.Member.$Properties[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a MemberListResponse. */
            type $Shape = palisade.v1.MemberListResponse.$Properties;
        }

        /**
         * Properties of a MemberAddRequest.
         * @deprecated Use palisade.v1.MemberAddRequest.$Properties instead.
         */
        interface IMemberAddRequest extends palisade.v1.MemberAddRequest.$Properties {
        }

        /** Represents a MemberAddRequest. */
        class MemberAddRequest {

            /**
             * Constructs a new MemberAddRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.MemberAddRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** MemberAddRequest nodeId. */
            nodeId: Long;

            /** MemberAddRequest address. */
            address: string;

            /** MemberAddRequest clientAddress. */
            clientAddress: string;

            /**
             * Creates a new MemberAddRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns MemberAddRequest instance
             */
            static create(properties: palisade.v1.MemberAddRequest.$Shape): palisade.v1.MemberAddRequest & palisade.v1.MemberAddRequest.$Shape;
            static create(properties?: palisade.v1.MemberAddRequest.$Properties): palisade.v1.MemberAddRequest;

            /**
             * Encodes the specified MemberAddRequest message. Does not implicitly {@link palisade.v1.MemberAddRequest.verify|verify} messages.
             * @param message MemberAddRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.MemberAddRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified MemberAddRequest message, length delimited. Does not implicitly {@link palisade.v1.MemberAddRequest.verify|verify} messages.
             * @param message MemberAddRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.MemberAddRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a MemberAddRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.MemberAddRequest & palisade.v1.MemberAddRequest.$Shape} MemberAddRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.MemberAddRequest & palisade.v1.MemberAddRequest.$Shape;

            /**
             * Decodes a MemberAddRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.MemberAddRequest & palisade.v1.MemberAddRequest.$Shape} MemberAddRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.MemberAddRequest & palisade.v1.MemberAddRequest.$Shape;

            /**
             * Verifies a MemberAddRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a MemberAddRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns MemberAddRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.MemberAddRequest;

            /**
             * Creates a plain object from a MemberAddRequest message. Also converts values to other types if specified.
             * @param message MemberAddRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.MemberAddRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this MemberAddRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for MemberAddRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace MemberAddRequest {

            /** Properties of a MemberAddRequest. */
            interface $Properties {

                /** MemberAddRequest nodeId */
                nodeId?: (Long|null);

                /** MemberAddRequest address */
                address?: (string|null);

                /** MemberAddRequest clientAddress */
                clientAddress?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a MemberAddRequest. */
            type $Shape = palisade.v1.MemberAddRequest.$Properties;
        }

        /**
         * Properties of a MemberAddResponse.
         * @deprecated Use palisade.v1.MemberAddResponse.$Properties instead.
         */
        interface IMemberAddResponse extends palisade.v1.MemberAddResponse.$Properties {
        }

        /** Represents a MemberAddResponse. */
        class MemberAddResponse {

            /**
             * Constructs a new MemberAddResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.MemberAddResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** MemberAddResponse members. */
            members: palisade.v1.Member.$Properties[];

            /**
             * Creates a new MemberAddResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns MemberAddResponse instance
             */
            static create(properties: palisade.v1.MemberAddResponse.$Shape): palisade.v1.MemberAddResponse & palisade.v1.MemberAddResponse.$Shape;
            static create(properties?: palisade.v1.MemberAddResponse.$Properties): palisade.v1.MemberAddResponse;

            /**
             * Encodes the specified MemberAddResponse message. Does not implicitly {@link palisade.v1.MemberAddResponse.verify|verify} messages.
             * @param message MemberAddResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.MemberAddResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified MemberAddResponse message, length delimited. Does not implicitly {@link palisade.v1.MemberAddResponse.verify|verify} messages.
             * @param message MemberAddResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.MemberAddResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a MemberAddResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.MemberAddResponse & palisade.v1.MemberAddResponse.$Shape} MemberAddResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.MemberAddResponse & palisade.v1.MemberAddResponse.$Shape;

            /**
             * Decodes a MemberAddResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.MemberAddResponse & palisade.v1.MemberAddResponse.$Shape} MemberAddResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.MemberAddResponse & palisade.v1.MemberAddResponse.$Shape;

            /**
             * Verifies a MemberAddResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a MemberAddResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns MemberAddResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.MemberAddResponse;

            /**
             * Creates a plain object from a MemberAddResponse message. Also converts values to other types if specified.
             * @param message MemberAddResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.MemberAddResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this MemberAddResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for MemberAddResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace MemberAddResponse {

            /** Properties of a MemberAddResponse. */
            interface $Properties {

                /** MemberAddResponse members */
                members?: (palisade.v1.Member.$Properties[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a MemberAddResponse. */
            type $Shape = palisade.v1.MemberAddResponse.$Properties;
        }

        /**
         * Properties of a MemberPromoteRequest.
         * @deprecated Use palisade.v1.MemberPromoteRequest.$Properties instead.
         */
        interface IMemberPromoteRequest extends palisade.v1.MemberPromoteRequest.$Properties {
        }

        /** Represents a MemberPromoteRequest. */
        class MemberPromoteRequest {

            /**
             * Constructs a new MemberPromoteRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.MemberPromoteRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** MemberPromoteRequest nodeId. */
            nodeId: Long;

            /**
             * Creates a new MemberPromoteRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns MemberPromoteRequest instance
             */
            static create(properties: palisade.v1.MemberPromoteRequest.$Shape): palisade.v1.MemberPromoteRequest & palisade.v1.MemberPromoteRequest.$Shape;
            static create(properties?: palisade.v1.MemberPromoteRequest.$Properties): palisade.v1.MemberPromoteRequest;

            /**
             * Encodes the specified MemberPromoteRequest message. Does not implicitly {@link palisade.v1.MemberPromoteRequest.verify|verify} messages.
             * @param message MemberPromoteRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.MemberPromoteRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified MemberPromoteRequest message, length delimited. Does not implicitly {@link palisade.v1.MemberPromoteRequest.verify|verify} messages.
             * @param message MemberPromoteRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.MemberPromoteRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a MemberPromoteRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.MemberPromoteRequest & palisade.v1.MemberPromoteRequest.$Shape} MemberPromoteRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.MemberPromoteRequest & palisade.v1.MemberPromoteRequest.$Shape;

            /**
             * Decodes a MemberPromoteRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.MemberPromoteRequest & palisade.v1.MemberPromoteRequest.$Shape} MemberPromoteRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.MemberPromoteRequest & palisade.v1.MemberPromoteRequest.$Shape;

            /**
             * Verifies a MemberPromoteRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a MemberPromoteRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns MemberPromoteRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.MemberPromoteRequest;

            /**
             * Creates a plain object from a MemberPromoteRequest message. Also converts values to other types if specified.
             * @param message MemberPromoteRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.MemberPromoteRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this MemberPromoteRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for MemberPromoteRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace MemberPromoteRequest {

            /** Properties of a MemberPromoteRequest. */
            interface $Properties {

                /** MemberPromoteRequest nodeId */
                nodeId?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a MemberPromoteRequest. */
            type $Shape = palisade.v1.MemberPromoteRequest.$Properties;
        }

        /**
         * Properties of a MemberPromoteResponse.
         * @deprecated Use palisade.v1.MemberPromoteResponse.$Properties instead.
         */
        interface IMemberPromoteResponse extends palisade.v1.MemberPromoteResponse.$Properties {
        }

        /** Represents a MemberPromoteResponse. */
        class MemberPromoteResponse {

            /**
             * Constructs a new MemberPromoteResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.MemberPromoteResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** MemberPromoteResponse members. */
            members: palisade.v1.Member.$Properties[];

            /**
             * Creates a new MemberPromoteResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns MemberPromoteResponse instance
             */
            static create(properties: palisade.v1.MemberPromoteResponse.$Shape): palisade.v1.MemberPromoteResponse & palisade.v1.MemberPromoteResponse.$Shape;
            static create(properties?: palisade.v1.MemberPromoteResponse.$Properties): palisade.v1.MemberPromoteResponse;

            /**
             * Encodes the specified MemberPromoteResponse message. Does not implicitly {@link palisade.v1.MemberPromoteResponse.verify|verify} messages.
             * @param message MemberPromoteResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.MemberPromoteResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified MemberPromoteResponse message, length delimited. Does not implicitly {@link palisade.v1.MemberPromoteResponse.verify|verify} messages.
             * @param message MemberPromoteResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.MemberPromoteResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a MemberPromoteResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.MemberPromoteResponse & palisade.v1.MemberPromoteResponse.$Shape} MemberPromoteResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.MemberPromoteResponse & palisade.v1.MemberPromoteResponse.$Shape;

            /**
             * Decodes a MemberPromoteResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.MemberPromoteResponse & palisade.v1.MemberPromoteResponse.$Shape} MemberPromoteResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.MemberPromoteResponse & palisade.v1.MemberPromoteResponse.$Shape;

            /**
             * Verifies a MemberPromoteResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a MemberPromoteResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns MemberPromoteResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.MemberPromoteResponse;

            /**
             * Creates a plain object from a MemberPromoteResponse message. Also converts values to other types if specified.
             * @param message MemberPromoteResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.MemberPromoteResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this MemberPromoteResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for MemberPromoteResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace MemberPromoteResponse {

            /** Properties of a MemberPromoteResponse. */
            interface $Properties {

                /** MemberPromoteResponse members */
                members?: (palisade.v1.Member.$Properties[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a MemberPromoteResponse. */
            type $Shape = palisade.v1.MemberPromoteResponse.$Properties;
        }

        /**
         * Properties of a MemberRemoveRequest.
         * @deprecated Use palisade.v1.MemberRemoveRequest.$Properties instead.
         */
        interface IMemberRemoveRequest extends palisade.v1.MemberRemoveRequest.$Properties {
        }

        /** Represents a MemberRemoveRequest. */
        class MemberRemoveRequest {

            /**
             * Constructs a new MemberRemoveRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.MemberRemoveRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** MemberRemoveRequest nodeId. */
            nodeId: Long;

            /**
             * Creates a new MemberRemoveRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns MemberRemoveRequest instance
             */
            static create(properties: palisade.v1.MemberRemoveRequest.$Shape): palisade.v1.MemberRemoveRequest & palisade.v1.MemberRemoveRequest.$Shape;
            static create(properties?: palisade.v1.MemberRemoveRequest.$Properties): palisade.v1.MemberRemoveRequest;

            /**
             * Encodes the specified MemberRemoveRequest message. Does not implicitly {@link palisade.v1.MemberRemoveRequest.verify|verify} messages.
             * @param message MemberRemoveRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.MemberRemoveRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified MemberRemoveRequest message, length delimited. Does not implicitly {@link palisade.v1.MemberRemoveRequest.verify|verify} messages.
             * @param message MemberRemoveRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.MemberRemoveRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a MemberRemoveRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.MemberRemoveRequest & palisade.v1.MemberRemoveRequest.$Shape} MemberRemoveRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.MemberRemoveRequest & palisade.v1.MemberRemoveRequest.$Shape;

            /**
             * Decodes a MemberRemoveRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.MemberRemoveRequest & palisade.v1.MemberRemoveRequest.$Shape} MemberRemoveRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.MemberRemoveRequest & palisade.v1.MemberRemoveRequest.$Shape;

            /**
             * Verifies a MemberRemoveRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a MemberRemoveRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns MemberRemoveRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.MemberRemoveRequest;

            /**
             * Creates a plain object from a MemberRemoveRequest message. Also converts values to other types if specified.
             * @param message MemberRemoveRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.MemberRemoveRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this MemberRemoveRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for MemberRemoveRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace MemberRemoveRequest {

            /** Properties of a MemberRemoveRequest. */
            interface $Properties {

                /** MemberRemoveRequest nodeId */
                nodeId?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a MemberRemoveRequest. */
            type $Shape = palisade.v1.MemberRemoveRequest.$Properties;
        }

        /**
         * Properties of a MemberRemoveResponse.
         * @deprecated Use palisade.v1.MemberRemoveResponse.$Properties instead.
         */
        interface IMemberRemoveResponse extends palisade.v1.MemberRemoveResponse.$Properties {
        }

        /** Represents a MemberRemoveResponse. */
        class MemberRemoveResponse {

            /**
             * Constructs a new MemberRemoveResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.MemberRemoveResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** MemberRemoveResponse members. */
            members: palisade.v1.Member.$Properties[];

            /**
             * Creates a new MemberRemoveResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns MemberRemoveResponse instance
             */
            static create(properties: palisade.v1.MemberRemoveResponse.$Shape): palisade.v1.MemberRemoveResponse & palisade.v1.MemberRemoveResponse.$Shape;
            static create(properties?: palisade.v1.MemberRemoveResponse.$Properties): palisade.v1.MemberRemoveResponse;

            /**
             * Encodes the specified MemberRemoveResponse message. Does not implicitly {@link palisade.v1.MemberRemoveResponse.verify|verify} messages.
             * @param message MemberRemoveResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.MemberRemoveResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified MemberRemoveResponse message, length delimited. Does not implicitly {@link palisade.v1.MemberRemoveResponse.verify|verify} messages.
             * @param message MemberRemoveResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.MemberRemoveResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a MemberRemoveResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.MemberRemoveResponse & palisade.v1.MemberRemoveResponse.$Shape} MemberRemoveResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.MemberRemoveResponse & palisade.v1.MemberRemoveResponse.$Shape;

            /**
             * Decodes a MemberRemoveResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.MemberRemoveResponse & palisade.v1.MemberRemoveResponse.$Shape} MemberRemoveResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.MemberRemoveResponse & palisade.v1.MemberRemoveResponse.$Shape;

            /**
             * Verifies a MemberRemoveResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a MemberRemoveResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns MemberRemoveResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.MemberRemoveResponse;

            /**
             * Creates a plain object from a MemberRemoveResponse message. Also converts values to other types if specified.
             * @param message MemberRemoveResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.MemberRemoveResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this MemberRemoveResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for MemberRemoveResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace MemberRemoveResponse {

            /** Properties of a MemberRemoveResponse. */
            interface $Properties {

                /** MemberRemoveResponse members */
                members?: (palisade.v1.Member.$Properties[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a MemberRemoveResponse. */
            type $Shape = palisade.v1.MemberRemoveResponse.$Properties;
        }

        /**
         * Properties of a SnapshotSaveRequest.
         * @deprecated Use palisade.v1.SnapshotSaveRequest.$Properties instead.
         */
        interface ISnapshotSaveRequest extends palisade.v1.SnapshotSaveRequest.$Properties {
        }

        /** Represents a SnapshotSaveRequest. */
        class SnapshotSaveRequest {

            /**
             * Constructs a new SnapshotSaveRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.SnapshotSaveRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new SnapshotSaveRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns SnapshotSaveRequest instance
             */
            static create(properties: palisade.v1.SnapshotSaveRequest.$Shape): palisade.v1.SnapshotSaveRequest & palisade.v1.SnapshotSaveRequest.$Shape;
            static create(properties?: palisade.v1.SnapshotSaveRequest.$Properties): palisade.v1.SnapshotSaveRequest;

            /**
             * Encodes the specified SnapshotSaveRequest message. Does not implicitly {@link palisade.v1.SnapshotSaveRequest.verify|verify} messages.
             * @param message SnapshotSaveRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.SnapshotSaveRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified SnapshotSaveRequest message, length delimited. Does not implicitly {@link palisade.v1.SnapshotSaveRequest.verify|verify} messages.
             * @param message SnapshotSaveRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.SnapshotSaveRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a SnapshotSaveRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.SnapshotSaveRequest & palisade.v1.SnapshotSaveRequest.$Shape} SnapshotSaveRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.SnapshotSaveRequest & palisade.v1.SnapshotSaveRequest.$Shape;

            /**
             * Decodes a SnapshotSaveRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.SnapshotSaveRequest & palisade.v1.SnapshotSaveRequest.$Shape} SnapshotSaveRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.SnapshotSaveRequest & palisade.v1.SnapshotSaveRequest.$Shape;

            /**
             * Verifies a SnapshotSaveRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a SnapshotSaveRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns SnapshotSaveRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.SnapshotSaveRequest;

            /**
             * Creates a plain object from a SnapshotSaveRequest message. Also converts values to other types if specified.
             * @param message SnapshotSaveRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.SnapshotSaveRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this SnapshotSaveRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for SnapshotSaveRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace SnapshotSaveRequest {

            /** Properties of a SnapshotSaveRequest. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a SnapshotSaveRequest. */
            type $Shape = palisade.v1.SnapshotSaveRequest.$Properties;
        }

        /**
         * Properties of a SnapshotSaveResponse.
         * @deprecated Use palisade.v1.SnapshotSaveResponse.$Properties instead.
         */
        interface ISnapshotSaveResponse extends palisade.v1.SnapshotSaveResponse.$Properties {
        }

        /** Represents a SnapshotSaveResponse. */
        class SnapshotSaveResponse {

            /**
             * Constructs a new SnapshotSaveResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.SnapshotSaveResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** SnapshotSaveResponse index. */
            index: Long;

            /** SnapshotSaveResponse term. */
            term: Long;

            /** SnapshotSaveResponse sizeBytes. */
            sizeBytes: Long;

            /**
             * Creates a new SnapshotSaveResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns SnapshotSaveResponse instance
             */
            static create(properties: palisade.v1.SnapshotSaveResponse.$Shape): palisade.v1.SnapshotSaveResponse & palisade.v1.SnapshotSaveResponse.$Shape;
            static create(properties?: palisade.v1.SnapshotSaveResponse.$Properties): palisade.v1.SnapshotSaveResponse;

            /**
             * Encodes the specified SnapshotSaveResponse message. Does not implicitly {@link palisade.v1.SnapshotSaveResponse.verify|verify} messages.
             * @param message SnapshotSaveResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.SnapshotSaveResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified SnapshotSaveResponse message, length delimited. Does not implicitly {@link palisade.v1.SnapshotSaveResponse.verify|verify} messages.
             * @param message SnapshotSaveResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.SnapshotSaveResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a SnapshotSaveResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.SnapshotSaveResponse & palisade.v1.SnapshotSaveResponse.$Shape} SnapshotSaveResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.SnapshotSaveResponse & palisade.v1.SnapshotSaveResponse.$Shape;

            /**
             * Decodes a SnapshotSaveResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.SnapshotSaveResponse & palisade.v1.SnapshotSaveResponse.$Shape} SnapshotSaveResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.SnapshotSaveResponse & palisade.v1.SnapshotSaveResponse.$Shape;

            /**
             * Verifies a SnapshotSaveResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a SnapshotSaveResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns SnapshotSaveResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.SnapshotSaveResponse;

            /**
             * Creates a plain object from a SnapshotSaveResponse message. Also converts values to other types if specified.
             * @param message SnapshotSaveResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.SnapshotSaveResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this SnapshotSaveResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for SnapshotSaveResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace SnapshotSaveResponse {

            /** Properties of a SnapshotSaveResponse. */
            interface $Properties {

                /** SnapshotSaveResponse index */
                index?: (Long|null);

                /** SnapshotSaveResponse term */
                term?: (Long|null);

                /** SnapshotSaveResponse sizeBytes */
                sizeBytes?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a SnapshotSaveResponse. */
            type $Shape = palisade.v1.SnapshotSaveResponse.$Properties;
        }

        /**
         * Properties of a BackupRequest.
         * @deprecated Use palisade.v1.BackupRequest.$Properties instead.
         */
        interface IBackupRequest extends palisade.v1.BackupRequest.$Properties {
        }

        /** Represents a BackupRequest. */
        class BackupRequest {

            /**
             * Constructs a new BackupRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.BackupRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new BackupRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns BackupRequest instance
             */
            static create(properties: palisade.v1.BackupRequest.$Shape): palisade.v1.BackupRequest & palisade.v1.BackupRequest.$Shape;
            static create(properties?: palisade.v1.BackupRequest.$Properties): palisade.v1.BackupRequest;

            /**
             * Encodes the specified BackupRequest message. Does not implicitly {@link palisade.v1.BackupRequest.verify|verify} messages.
             * @param message BackupRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.BackupRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified BackupRequest message, length delimited. Does not implicitly {@link palisade.v1.BackupRequest.verify|verify} messages.
             * @param message BackupRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.BackupRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a BackupRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.BackupRequest & palisade.v1.BackupRequest.$Shape} BackupRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.BackupRequest & palisade.v1.BackupRequest.$Shape;

            /**
             * Decodes a BackupRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.BackupRequest & palisade.v1.BackupRequest.$Shape} BackupRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.BackupRequest & palisade.v1.BackupRequest.$Shape;

            /**
             * Verifies a BackupRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a BackupRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns BackupRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.BackupRequest;

            /**
             * Creates a plain object from a BackupRequest message. Also converts values to other types if specified.
             * @param message BackupRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.BackupRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this BackupRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for BackupRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace BackupRequest {

            /** Properties of a BackupRequest. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a BackupRequest. */
            type $Shape = palisade.v1.BackupRequest.$Properties;
        }

        /**
         * Properties of a BackupChunk.
         * @deprecated Use palisade.v1.BackupChunk.$Properties instead.
         */
        interface IBackupChunk extends palisade.v1.BackupChunk.$Properties {
        }

        /** Represents a BackupChunk. */
        class BackupChunk {

            /**
             * Constructs a new BackupChunk.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.BackupChunk.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** BackupChunk index. */
            index: Long;

            /** BackupChunk term. */
            term: Long;

            /** BackupChunk clusterId. */
            clusterId: string;

            /** BackupChunk epoch. */
            epoch: Long;

            /** BackupChunk data. */
            data: Uint8Array;

            /** BackupChunk last. */
            last: boolean;

            /**
             * Creates a new BackupChunk instance using the specified properties.
             * @param [properties] Properties to set
             * @returns BackupChunk instance
             */
            static create(properties: palisade.v1.BackupChunk.$Shape): palisade.v1.BackupChunk & palisade.v1.BackupChunk.$Shape;
            static create(properties?: palisade.v1.BackupChunk.$Properties): palisade.v1.BackupChunk;

            /**
             * Encodes the specified BackupChunk message. Does not implicitly {@link palisade.v1.BackupChunk.verify|verify} messages.
             * @param message BackupChunk message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.BackupChunk.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified BackupChunk message, length delimited. Does not implicitly {@link palisade.v1.BackupChunk.verify|verify} messages.
             * @param message BackupChunk message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.BackupChunk.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a BackupChunk message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.BackupChunk & palisade.v1.BackupChunk.$Shape} BackupChunk
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.BackupChunk & palisade.v1.BackupChunk.$Shape;

            /**
             * Decodes a BackupChunk message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.BackupChunk & palisade.v1.BackupChunk.$Shape} BackupChunk
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.BackupChunk & palisade.v1.BackupChunk.$Shape;

            /**
             * Verifies a BackupChunk message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a BackupChunk message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns BackupChunk
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.BackupChunk;

            /**
             * Creates a plain object from a BackupChunk message. Also converts values to other types if specified.
             * @param message BackupChunk
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.BackupChunk, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this BackupChunk to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for BackupChunk
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace BackupChunk {

            /** Properties of a BackupChunk. */
            interface $Properties {

                /** BackupChunk index */
                index?: (Long|null);

                /** BackupChunk term */
                term?: (Long|null);

                /** BackupChunk clusterId */
                clusterId?: (string|null);

                /** BackupChunk epoch */
                epoch?: (Long|null);

                /** BackupChunk data */
                data?: (Uint8Array|null);

                /** BackupChunk last */
                last?: (boolean|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a BackupChunk. */
            type $Shape = palisade.v1.BackupChunk.$Properties;
        }

        /** Represents a LockService */
        class LockService extends $protobuf.rpc.Service {

            /**
             * Constructs a new LockService service.
             * @param rpcImpl RPC implementation
             * @param [requestDelimited=false] Whether requests are length-delimited
             * @param [responseDelimited=false] Whether responses are length-delimited
             */
            constructor(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean);

            /**
             * Creates new LockService service using the specified rpc implementation.
             * @param rpcImpl RPC implementation
             * @param [requestDelimited=false] Whether requests are length-delimited
             * @param [responseDelimited=false] Whether responses are length-delimited
             * @returns RPC service. Useful where requests and/or responses are streamed.
             */
            static create(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean): LockService;

            /** Calls OpenSession. */
            openSession: palisade.v1.LockService.OpenSession;

            /** Calls KeepAlive. */
            keepAlive: palisade.v1.LockService.KeepAlive;

            /** Calls CloseSession. */
            closeSession: palisade.v1.LockService.CloseSession;

            /** Calls Acquire. */
            acquire: palisade.v1.LockService.Acquire;

            /** Calls CancelWait. */
            cancelWait: palisade.v1.LockService.CancelWait;

            /** Calls Release. */
            release: palisade.v1.LockService.Release;

            /** Calls GetLock. */
            getLock: palisade.v1.LockService.GetLock;

            /** Calls ListLocks. */
            listLocks: palisade.v1.LockService.ListLocks;

            /** Calls GetSession. */
            getSession: palisade.v1.LockService.GetSession;

            /** Calls ListSessions. */
            listSessions: palisade.v1.LockService.ListSessions;

            /** Calls GetLockHistory. */
            getLockHistory: palisade.v1.LockService.GetLockHistory;

            /** Calls ValidateToken. */
            validateToken: palisade.v1.LockService.ValidateToken;

            /** Calls Watch. */
            watch: palisade.v1.LockService.Watch;

            /** Calls Campaign. */
            campaign: palisade.v1.LockService.Campaign;

            /** Calls Proclaim. */
            proclaim: palisade.v1.LockService.Proclaim;

            /** Calls Resign. */
            resign: palisade.v1.LockService.Resign;

            /** Calls Leader. */
            leader: palisade.v1.LockService.Leader;

            /** Calls Observe. */
            observe: palisade.v1.LockService.Observe;

            /** Calls Upgrade. */
            upgrade: palisade.v1.LockService.Upgrade;

            /** Calls Downgrade. */
            downgrade: palisade.v1.LockService.Downgrade;

            /** Calls Stream. */
            stream: palisade.v1.LockService.Stream;
        }

        namespace LockService {

            /**
             * Callback as used by {@link palisade.v1.LockService#openSession}.
             * @param error Error, if any
             * @param [response] OpenSessionResponse
             */
            type OpenSessionCallback = (error: (Error|null), response?: palisade.v1.OpenSessionResponse) => void;

            /** Calls OpenSession. */
            type OpenSession = {
              (request: palisade.v1.IOpenSessionRequest, callback: palisade.v1.LockService.OpenSessionCallback): void;
              (request: palisade.v1.IOpenSessionRequest): Promise<palisade.v1.OpenSessionResponse>;
              readonly name: "OpenSession";
              readonly path: "/palisade.v1.LockService/OpenSession";
              readonly requestType: "OpenSessionRequest";
              readonly responseType: "OpenSessionResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#keepAlive}.
             * @param error Error, if any
             * @param [response] KeepAliveResponse
             */
            type KeepAliveCallback = (error: (Error|null), response?: palisade.v1.KeepAliveResponse) => void;

            /** Calls KeepAlive. */
            type KeepAlive = {
              (request: palisade.v1.IKeepAliveRequest, callback: palisade.v1.LockService.KeepAliveCallback): void;
              (request: palisade.v1.IKeepAliveRequest): Promise<palisade.v1.KeepAliveResponse>;
              readonly name: "KeepAlive";
              readonly path: "/palisade.v1.LockService/KeepAlive";
              readonly requestType: "KeepAliveRequest";
              readonly responseType: "KeepAliveResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#closeSession}.
             * @param error Error, if any
             * @param [response] CloseSessionResponse
             */
            type CloseSessionCallback = (error: (Error|null), response?: palisade.v1.CloseSessionResponse) => void;

            /** Calls CloseSession. */
            type CloseSession = {
              (request: palisade.v1.ICloseSessionRequest, callback: palisade.v1.LockService.CloseSessionCallback): void;
              (request: palisade.v1.ICloseSessionRequest): Promise<palisade.v1.CloseSessionResponse>;
              readonly name: "CloseSession";
              readonly path: "/palisade.v1.LockService/CloseSession";
              readonly requestType: "CloseSessionRequest";
              readonly responseType: "CloseSessionResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#acquire}.
             * @param error Error, if any
             * @param [response] AcquireResponse
             */
            type AcquireCallback = (error: (Error|null), response?: palisade.v1.AcquireResponse) => void;

            /** Calls Acquire. */
            type Acquire = {
              (request: palisade.v1.IAcquireRequest, callback: palisade.v1.LockService.AcquireCallback): void;
              (request: palisade.v1.IAcquireRequest): Promise<palisade.v1.AcquireResponse>;
              readonly name: "Acquire";
              readonly path: "/palisade.v1.LockService/Acquire";
              readonly requestType: "AcquireRequest";
              readonly responseType: "AcquireResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#cancelWait}.
             * @param error Error, if any
             * @param [response] CancelWaitResponse
             */
            type CancelWaitCallback = (error: (Error|null), response?: palisade.v1.CancelWaitResponse) => void;

            /** Calls CancelWait. */
            type CancelWait = {
              (request: palisade.v1.ICancelWaitRequest, callback: palisade.v1.LockService.CancelWaitCallback): void;
              (request: palisade.v1.ICancelWaitRequest): Promise<palisade.v1.CancelWaitResponse>;
              readonly name: "CancelWait";
              readonly path: "/palisade.v1.LockService/CancelWait";
              readonly requestType: "CancelWaitRequest";
              readonly responseType: "CancelWaitResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#release}.
             * @param error Error, if any
             * @param [response] ReleaseResponse
             */
            type ReleaseCallback = (error: (Error|null), response?: palisade.v1.ReleaseResponse) => void;

            /** Calls Release. */
            type Release = {
              (request: palisade.v1.IReleaseRequest, callback: palisade.v1.LockService.ReleaseCallback): void;
              (request: palisade.v1.IReleaseRequest): Promise<palisade.v1.ReleaseResponse>;
              readonly name: "Release";
              readonly path: "/palisade.v1.LockService/Release";
              readonly requestType: "ReleaseRequest";
              readonly responseType: "ReleaseResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#getLock}.
             * @param error Error, if any
             * @param [response] GetLockResponse
             */
            type GetLockCallback = (error: (Error|null), response?: palisade.v1.GetLockResponse) => void;

            /** Calls GetLock. */
            type GetLock = {
              (request: palisade.v1.IGetLockRequest, callback: palisade.v1.LockService.GetLockCallback): void;
              (request: palisade.v1.IGetLockRequest): Promise<palisade.v1.GetLockResponse>;
              readonly name: "GetLock";
              readonly path: "/palisade.v1.LockService/GetLock";
              readonly requestType: "GetLockRequest";
              readonly responseType: "GetLockResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#listLocks}.
             * @param error Error, if any
             * @param [response] ListLocksResponse
             */
            type ListLocksCallback = (error: (Error|null), response?: palisade.v1.ListLocksResponse) => void;

            /** Calls ListLocks. */
            type ListLocks = {
              (request: palisade.v1.IListLocksRequest, callback: palisade.v1.LockService.ListLocksCallback): void;
              (request: palisade.v1.IListLocksRequest): Promise<palisade.v1.ListLocksResponse>;
              readonly name: "ListLocks";
              readonly path: "/palisade.v1.LockService/ListLocks";
              readonly requestType: "ListLocksRequest";
              readonly responseType: "ListLocksResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#getSession}.
             * @param error Error, if any
             * @param [response] GetSessionResponse
             */
            type GetSessionCallback = (error: (Error|null), response?: palisade.v1.GetSessionResponse) => void;

            /** Calls GetSession. */
            type GetSession = {
              (request: palisade.v1.IGetSessionRequest, callback: palisade.v1.LockService.GetSessionCallback): void;
              (request: palisade.v1.IGetSessionRequest): Promise<palisade.v1.GetSessionResponse>;
              readonly name: "GetSession";
              readonly path: "/palisade.v1.LockService/GetSession";
              readonly requestType: "GetSessionRequest";
              readonly responseType: "GetSessionResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#listSessions}.
             * @param error Error, if any
             * @param [response] ListSessionsResponse
             */
            type ListSessionsCallback = (error: (Error|null), response?: palisade.v1.ListSessionsResponse) => void;

            /** Calls ListSessions. */
            type ListSessions = {
              (request: palisade.v1.IListSessionsRequest, callback: palisade.v1.LockService.ListSessionsCallback): void;
              (request: palisade.v1.IListSessionsRequest): Promise<palisade.v1.ListSessionsResponse>;
              readonly name: "ListSessions";
              readonly path: "/palisade.v1.LockService/ListSessions";
              readonly requestType: "ListSessionsRequest";
              readonly responseType: "ListSessionsResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#getLockHistory}.
             * @param error Error, if any
             * @param [response] GetLockHistoryResponse
             */
            type GetLockHistoryCallback = (error: (Error|null), response?: palisade.v1.GetLockHistoryResponse) => void;

            /** Calls GetLockHistory. */
            type GetLockHistory = {
              (request: palisade.v1.IGetLockHistoryRequest, callback: palisade.v1.LockService.GetLockHistoryCallback): void;
              (request: palisade.v1.IGetLockHistoryRequest): Promise<palisade.v1.GetLockHistoryResponse>;
              readonly name: "GetLockHistory";
              readonly path: "/palisade.v1.LockService/GetLockHistory";
              readonly requestType: "GetLockHistoryRequest";
              readonly responseType: "GetLockHistoryResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#validateToken}.
             * @param error Error, if any
             * @param [response] ValidateTokenResponse
             */
            type ValidateTokenCallback = (error: (Error|null), response?: palisade.v1.ValidateTokenResponse) => void;

            /** Calls ValidateToken. */
            type ValidateToken = {
              (request: palisade.v1.IValidateTokenRequest, callback: palisade.v1.LockService.ValidateTokenCallback): void;
              (request: palisade.v1.IValidateTokenRequest): Promise<palisade.v1.ValidateTokenResponse>;
              readonly name: "ValidateToken";
              readonly path: "/palisade.v1.LockService/ValidateToken";
              readonly requestType: "ValidateTokenRequest";
              readonly responseType: "ValidateTokenResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#watch}.
             * @param error Error, if any
             * @param [response] WatchEvent
             */
            type WatchCallback = (error: (Error|null), response?: palisade.v1.WatchEvent) => void;

            /** Calls Watch. */
            type Watch = {
              (request: palisade.v1.IWatchRequest, callback: palisade.v1.LockService.WatchCallback): void;
              (request: palisade.v1.IWatchRequest): Promise<palisade.v1.WatchEvent>;
              readonly name: "Watch";
              readonly path: "/palisade.v1.LockService/Watch";
              readonly requestType: "WatchRequest";
              readonly responseType: "WatchEvent";
              readonly requestStream: undefined;
              readonly responseStream: true;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#campaign}.
             * @param error Error, if any
             * @param [response] CampaignResponse
             */
            type CampaignCallback = (error: (Error|null), response?: palisade.v1.CampaignResponse) => void;

            /** Calls Campaign. */
            type Campaign = {
              (request: palisade.v1.ICampaignRequest, callback: palisade.v1.LockService.CampaignCallback): void;
              (request: palisade.v1.ICampaignRequest): Promise<palisade.v1.CampaignResponse>;
              readonly name: "Campaign";
              readonly path: "/palisade.v1.LockService/Campaign";
              readonly requestType: "CampaignRequest";
              readonly responseType: "CampaignResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#proclaim}.
             * @param error Error, if any
             * @param [response] ProclaimResponse
             */
            type ProclaimCallback = (error: (Error|null), response?: palisade.v1.ProclaimResponse) => void;

            /** Calls Proclaim. */
            type Proclaim = {
              (request: palisade.v1.IProclaimRequest, callback: palisade.v1.LockService.ProclaimCallback): void;
              (request: palisade.v1.IProclaimRequest): Promise<palisade.v1.ProclaimResponse>;
              readonly name: "Proclaim";
              readonly path: "/palisade.v1.LockService/Proclaim";
              readonly requestType: "ProclaimRequest";
              readonly responseType: "ProclaimResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#resign}.
             * @param error Error, if any
             * @param [response] ResignResponse
             */
            type ResignCallback = (error: (Error|null), response?: palisade.v1.ResignResponse) => void;

            /** Calls Resign. */
            type Resign = {
              (request: palisade.v1.IResignRequest, callback: palisade.v1.LockService.ResignCallback): void;
              (request: palisade.v1.IResignRequest): Promise<palisade.v1.ResignResponse>;
              readonly name: "Resign";
              readonly path: "/palisade.v1.LockService/Resign";
              readonly requestType: "ResignRequest";
              readonly responseType: "ResignResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#leader}.
             * @param error Error, if any
             * @param [response] LeaderResponse
             */
            type LeaderCallback = (error: (Error|null), response?: palisade.v1.LeaderResponse) => void;

            /** Calls Leader. */
            type Leader = {
              (request: palisade.v1.ILeaderRequest, callback: palisade.v1.LockService.LeaderCallback): void;
              (request: palisade.v1.ILeaderRequest): Promise<palisade.v1.LeaderResponse>;
              readonly name: "Leader";
              readonly path: "/palisade.v1.LockService/Leader";
              readonly requestType: "LeaderRequest";
              readonly responseType: "LeaderResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#observe}.
             * @param error Error, if any
             * @param [response] ElectionEvent
             */
            type ObserveCallback = (error: (Error|null), response?: palisade.v1.ElectionEvent) => void;

            /** Calls Observe. */
            type Observe = {
              (request: palisade.v1.IObserveRequest, callback: palisade.v1.LockService.ObserveCallback): void;
              (request: palisade.v1.IObserveRequest): Promise<palisade.v1.ElectionEvent>;
              readonly name: "Observe";
              readonly path: "/palisade.v1.LockService/Observe";
              readonly requestType: "ObserveRequest";
              readonly responseType: "ElectionEvent";
              readonly requestStream: undefined;
              readonly responseStream: true;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#upgrade}.
             * @param error Error, if any
             * @param [response] UpgradeResponse
             */
            type UpgradeCallback = (error: (Error|null), response?: palisade.v1.UpgradeResponse) => void;

            /** Calls Upgrade. */
            type Upgrade = {
              (request: palisade.v1.IUpgradeRequest, callback: palisade.v1.LockService.UpgradeCallback): void;
              (request: palisade.v1.IUpgradeRequest): Promise<palisade.v1.UpgradeResponse>;
              readonly name: "Upgrade";
              readonly path: "/palisade.v1.LockService/Upgrade";
              readonly requestType: "UpgradeRequest";
              readonly responseType: "UpgradeResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#downgrade}.
             * @param error Error, if any
             * @param [response] DowngradeResponse
             */
            type DowngradeCallback = (error: (Error|null), response?: palisade.v1.DowngradeResponse) => void;

            /** Calls Downgrade. */
            type Downgrade = {
              (request: palisade.v1.IDowngradeRequest, callback: palisade.v1.LockService.DowngradeCallback): void;
              (request: palisade.v1.IDowngradeRequest): Promise<palisade.v1.DowngradeResponse>;
              readonly name: "Downgrade";
              readonly path: "/palisade.v1.LockService/Downgrade";
              readonly requestType: "DowngradeRequest";
              readonly responseType: "DowngradeResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };

            /**
             * Callback as used by {@link palisade.v1.LockService#stream}.
             * @param error Error, if any
             * @param [response] ServerFrame
             */
            type StreamCallback = (error: (Error|null), response?: palisade.v1.ServerFrame) => void;

            /** Calls Stream. */
            type Stream = {
              (request: palisade.v1.IClientFrame, callback: palisade.v1.LockService.StreamCallback): void;
              (request: palisade.v1.IClientFrame): Promise<palisade.v1.ServerFrame>;
              readonly name: "Stream";
              readonly path: "/palisade.v1.LockService/Stream";
              readonly requestType: "ClientFrame";
              readonly responseType: "ServerFrame";
              readonly requestStream: true;
              readonly responseStream: true;
            };
        }

        /**
         * Properties of an OpenSessionRequest.
         * @deprecated Use palisade.v1.OpenSessionRequest.$Properties instead.
         */
        interface IOpenSessionRequest extends palisade.v1.OpenSessionRequest.$Properties {
        }

        /** Represents an OpenSessionRequest. */
        class OpenSessionRequest {

            /**
             * Constructs a new OpenSessionRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.OpenSessionRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** OpenSessionRequest ttlMs. */
            ttlMs: Long;

            /** OpenSessionRequest clientName. */
            clientName: string;

            /** OpenSessionRequest requestId. */
            requestId: string;

            /**
             * Creates a new OpenSessionRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns OpenSessionRequest instance
             */
            static create(properties: palisade.v1.OpenSessionRequest.$Shape): palisade.v1.OpenSessionRequest & palisade.v1.OpenSessionRequest.$Shape;
            static create(properties?: palisade.v1.OpenSessionRequest.$Properties): palisade.v1.OpenSessionRequest;

            /**
             * Encodes the specified OpenSessionRequest message. Does not implicitly {@link palisade.v1.OpenSessionRequest.verify|verify} messages.
             * @param message OpenSessionRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.OpenSessionRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified OpenSessionRequest message, length delimited. Does not implicitly {@link palisade.v1.OpenSessionRequest.verify|verify} messages.
             * @param message OpenSessionRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.OpenSessionRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an OpenSessionRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.OpenSessionRequest & palisade.v1.OpenSessionRequest.$Shape} OpenSessionRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.OpenSessionRequest & palisade.v1.OpenSessionRequest.$Shape;

            /**
             * Decodes an OpenSessionRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.OpenSessionRequest & palisade.v1.OpenSessionRequest.$Shape} OpenSessionRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.OpenSessionRequest & palisade.v1.OpenSessionRequest.$Shape;

            /**
             * Verifies an OpenSessionRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an OpenSessionRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns OpenSessionRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.OpenSessionRequest;

            /**
             * Creates a plain object from an OpenSessionRequest message. Also converts values to other types if specified.
             * @param message OpenSessionRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.OpenSessionRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this OpenSessionRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for OpenSessionRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace OpenSessionRequest {

            /** Properties of an OpenSessionRequest. */
            interface $Properties {

                /** OpenSessionRequest ttlMs */
                ttlMs?: (Long|null);

                /** OpenSessionRequest clientName */
                clientName?: (string|null);

                /** OpenSessionRequest requestId */
                requestId?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an OpenSessionRequest. */
            type $Shape = palisade.v1.OpenSessionRequest.$Properties;
        }

        /**
         * Properties of an OpenSessionResponse.
         * @deprecated Use palisade.v1.OpenSessionResponse.$Properties instead.
         */
        interface IOpenSessionResponse extends palisade.v1.OpenSessionResponse.$Properties {
        }

        /** Represents an OpenSessionResponse. */
        class OpenSessionResponse {

            /**
             * Constructs a new OpenSessionResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.OpenSessionResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** OpenSessionResponse sessionId. */
            sessionId: Long;

            /** OpenSessionResponse ttlMs. */
            ttlMs: Long;

            /**
             * Creates a new OpenSessionResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns OpenSessionResponse instance
             */
            static create(properties: palisade.v1.OpenSessionResponse.$Shape): palisade.v1.OpenSessionResponse & palisade.v1.OpenSessionResponse.$Shape;
            static create(properties?: palisade.v1.OpenSessionResponse.$Properties): palisade.v1.OpenSessionResponse;

            /**
             * Encodes the specified OpenSessionResponse message. Does not implicitly {@link palisade.v1.OpenSessionResponse.verify|verify} messages.
             * @param message OpenSessionResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.OpenSessionResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified OpenSessionResponse message, length delimited. Does not implicitly {@link palisade.v1.OpenSessionResponse.verify|verify} messages.
             * @param message OpenSessionResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.OpenSessionResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an OpenSessionResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.OpenSessionResponse & palisade.v1.OpenSessionResponse.$Shape} OpenSessionResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.OpenSessionResponse & palisade.v1.OpenSessionResponse.$Shape;

            /**
             * Decodes an OpenSessionResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.OpenSessionResponse & palisade.v1.OpenSessionResponse.$Shape} OpenSessionResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.OpenSessionResponse & palisade.v1.OpenSessionResponse.$Shape;

            /**
             * Verifies an OpenSessionResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an OpenSessionResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns OpenSessionResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.OpenSessionResponse;

            /**
             * Creates a plain object from an OpenSessionResponse message. Also converts values to other types if specified.
             * @param message OpenSessionResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.OpenSessionResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this OpenSessionResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for OpenSessionResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace OpenSessionResponse {

            /** Properties of an OpenSessionResponse. */
            interface $Properties {

                /** OpenSessionResponse sessionId */
                sessionId?: (Long|null);

                /** OpenSessionResponse ttlMs */
                ttlMs?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an OpenSessionResponse. */
            type $Shape = palisade.v1.OpenSessionResponse.$Properties;
        }

        /**
         * Properties of a KeepAliveRequest.
         * @deprecated Use palisade.v1.KeepAliveRequest.$Properties instead.
         */
        interface IKeepAliveRequest extends palisade.v1.KeepAliveRequest.$Properties {
        }

        /** Represents a KeepAliveRequest. */
        class KeepAliveRequest {

            /**
             * Constructs a new KeepAliveRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.KeepAliveRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** KeepAliveRequest sessionIds. */
            sessionIds: Long[];

            /**
             * Creates a new KeepAliveRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns KeepAliveRequest instance
             */
            static create(properties: palisade.v1.KeepAliveRequest.$Shape): palisade.v1.KeepAliveRequest & palisade.v1.KeepAliveRequest.$Shape;
            static create(properties?: palisade.v1.KeepAliveRequest.$Properties): palisade.v1.KeepAliveRequest;

            /**
             * Encodes the specified KeepAliveRequest message. Does not implicitly {@link palisade.v1.KeepAliveRequest.verify|verify} messages.
             * @param message KeepAliveRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.KeepAliveRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified KeepAliveRequest message, length delimited. Does not implicitly {@link palisade.v1.KeepAliveRequest.verify|verify} messages.
             * @param message KeepAliveRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.KeepAliveRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a KeepAliveRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.KeepAliveRequest & palisade.v1.KeepAliveRequest.$Shape} KeepAliveRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.KeepAliveRequest & palisade.v1.KeepAliveRequest.$Shape;

            /**
             * Decodes a KeepAliveRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.KeepAliveRequest & palisade.v1.KeepAliveRequest.$Shape} KeepAliveRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.KeepAliveRequest & palisade.v1.KeepAliveRequest.$Shape;

            /**
             * Verifies a KeepAliveRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a KeepAliveRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns KeepAliveRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.KeepAliveRequest;

            /**
             * Creates a plain object from a KeepAliveRequest message. Also converts values to other types if specified.
             * @param message KeepAliveRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.KeepAliveRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this KeepAliveRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for KeepAliveRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace KeepAliveRequest {

            /** Properties of a KeepAliveRequest. */
            interface $Properties {

                /** KeepAliveRequest sessionIds */
                sessionIds?: (Long[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a KeepAliveRequest. */
            type $Shape = palisade.v1.KeepAliveRequest.$Properties;
        }

        /**
         * Properties of a KeepAliveResponse.
         * @deprecated Use palisade.v1.KeepAliveResponse.$Properties instead.
         */
        interface IKeepAliveResponse extends palisade.v1.KeepAliveResponse.$Properties {
        }

        /** Represents a KeepAliveResponse. */
        class KeepAliveResponse {

            /**
             * Constructs a new KeepAliveResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.KeepAliveResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** KeepAliveResponse sessions. */
            sessions: palisade.v1.SessionKeptAlive.$Properties[];

            /**
             * Creates a new KeepAliveResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns KeepAliveResponse instance
             */
            static create(properties: palisade.v1.KeepAliveResponse.$Shape): palisade.v1.KeepAliveResponse & palisade.v1.KeepAliveResponse.$Shape;
            static create(properties?: palisade.v1.KeepAliveResponse.$Properties): palisade.v1.KeepAliveResponse;

            /**
             * Encodes the specified KeepAliveResponse message. Does not implicitly {@link palisade.v1.KeepAliveResponse.verify|verify} messages.
             * @param message KeepAliveResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.KeepAliveResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified KeepAliveResponse message, length delimited. Does not implicitly {@link palisade.v1.KeepAliveResponse.verify|verify} messages.
             * @param message KeepAliveResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.KeepAliveResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a KeepAliveResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.KeepAliveResponse & palisade.v1.KeepAliveResponse.$Shape} KeepAliveResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.KeepAliveResponse & palisade.v1.KeepAliveResponse.$Shape;

            /**
             * Decodes a KeepAliveResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.KeepAliveResponse & palisade.v1.KeepAliveResponse.$Shape} KeepAliveResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.KeepAliveResponse & palisade.v1.KeepAliveResponse.$Shape;

            /**
             * Verifies a KeepAliveResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a KeepAliveResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns KeepAliveResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.KeepAliveResponse;

            /**
             * Creates a plain object from a KeepAliveResponse message. Also converts values to other types if specified.
             * @param message KeepAliveResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.KeepAliveResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this KeepAliveResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for KeepAliveResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace KeepAliveResponse {

            /** Properties of a KeepAliveResponse. */
            interface $Properties {

                /** KeepAliveResponse sessions */
                sessions?: (palisade.v1.SessionKeptAlive.$Properties[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a KeepAliveResponse. */
            type $Shape = palisade.v1.KeepAliveResponse.$Properties;
        }

        /**
         * Properties of a SessionKeptAlive.
         * @deprecated Use palisade.v1.SessionKeptAlive.$Properties instead.
         */
        interface ISessionKeptAlive extends palisade.v1.SessionKeptAlive.$Properties {
        }

        /** Represents a SessionKeptAlive. */
        class SessionKeptAlive {

            /**
             * Constructs a new SessionKeptAlive.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.SessionKeptAlive.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** SessionKeptAlive sessionId. */
            sessionId: Long;

            /** SessionKeptAlive ttlMs. */
            ttlMs: Long;

            /** SessionKeptAlive notFound. */
            notFound: boolean;

            /** SessionKeptAlive permissionDenied. */
            permissionDenied: boolean;

            /**
             * Creates a new SessionKeptAlive instance using the specified properties.
             * @param [properties] Properties to set
             * @returns SessionKeptAlive instance
             */
            static create(properties: palisade.v1.SessionKeptAlive.$Shape): palisade.v1.SessionKeptAlive & palisade.v1.SessionKeptAlive.$Shape;
            static create(properties?: palisade.v1.SessionKeptAlive.$Properties): palisade.v1.SessionKeptAlive;

            /**
             * Encodes the specified SessionKeptAlive message. Does not implicitly {@link palisade.v1.SessionKeptAlive.verify|verify} messages.
             * @param message SessionKeptAlive message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.SessionKeptAlive.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified SessionKeptAlive message, length delimited. Does not implicitly {@link palisade.v1.SessionKeptAlive.verify|verify} messages.
             * @param message SessionKeptAlive message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.SessionKeptAlive.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a SessionKeptAlive message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.SessionKeptAlive & palisade.v1.SessionKeptAlive.$Shape} SessionKeptAlive
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.SessionKeptAlive & palisade.v1.SessionKeptAlive.$Shape;

            /**
             * Decodes a SessionKeptAlive message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.SessionKeptAlive & palisade.v1.SessionKeptAlive.$Shape} SessionKeptAlive
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.SessionKeptAlive & palisade.v1.SessionKeptAlive.$Shape;

            /**
             * Verifies a SessionKeptAlive message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a SessionKeptAlive message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns SessionKeptAlive
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.SessionKeptAlive;

            /**
             * Creates a plain object from a SessionKeptAlive message. Also converts values to other types if specified.
             * @param message SessionKeptAlive
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.SessionKeptAlive, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this SessionKeptAlive to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for SessionKeptAlive
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace SessionKeptAlive {

            /** Properties of a SessionKeptAlive. */
            interface $Properties {

                /** SessionKeptAlive sessionId */
                sessionId?: (Long|null);

                /** SessionKeptAlive ttlMs */
                ttlMs?: (Long|null);

                /** SessionKeptAlive notFound */
                notFound?: (boolean|null);

                /** SessionKeptAlive permissionDenied */
                permissionDenied?: (boolean|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a SessionKeptAlive. */
            type $Shape = palisade.v1.SessionKeptAlive.$Properties;
        }

        /**
         * Properties of a CloseSessionRequest.
         * @deprecated Use palisade.v1.CloseSessionRequest.$Properties instead.
         */
        interface ICloseSessionRequest extends palisade.v1.CloseSessionRequest.$Properties {
        }

        /** Represents a CloseSessionRequest. */
        class CloseSessionRequest {

            /**
             * Constructs a new CloseSessionRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.CloseSessionRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** CloseSessionRequest sessionId. */
            sessionId: Long;

            /** CloseSessionRequest seq. */
            seq: Long;

            /** CloseSessionRequest ackedUpTo. */
            ackedUpTo: Long;

            /** CloseSessionRequest held. */
            held: Long[];

            /**
             * Creates a new CloseSessionRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns CloseSessionRequest instance
             */
            static create(properties: palisade.v1.CloseSessionRequest.$Shape): palisade.v1.CloseSessionRequest & palisade.v1.CloseSessionRequest.$Shape;
            static create(properties?: palisade.v1.CloseSessionRequest.$Properties): palisade.v1.CloseSessionRequest;

            /**
             * Encodes the specified CloseSessionRequest message. Does not implicitly {@link palisade.v1.CloseSessionRequest.verify|verify} messages.
             * @param message CloseSessionRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.CloseSessionRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified CloseSessionRequest message, length delimited. Does not implicitly {@link palisade.v1.CloseSessionRequest.verify|verify} messages.
             * @param message CloseSessionRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.CloseSessionRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CloseSessionRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.CloseSessionRequest & palisade.v1.CloseSessionRequest.$Shape} CloseSessionRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.CloseSessionRequest & palisade.v1.CloseSessionRequest.$Shape;

            /**
             * Decodes a CloseSessionRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.CloseSessionRequest & palisade.v1.CloseSessionRequest.$Shape} CloseSessionRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.CloseSessionRequest & palisade.v1.CloseSessionRequest.$Shape;

            /**
             * Verifies a CloseSessionRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a CloseSessionRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns CloseSessionRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.CloseSessionRequest;

            /**
             * Creates a plain object from a CloseSessionRequest message. Also converts values to other types if specified.
             * @param message CloseSessionRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.CloseSessionRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this CloseSessionRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for CloseSessionRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace CloseSessionRequest {

            /** Properties of a CloseSessionRequest. */
            interface $Properties {

                /** CloseSessionRequest sessionId */
                sessionId?: (Long|null);

                /** CloseSessionRequest seq */
                seq?: (Long|null);

                /** CloseSessionRequest ackedUpTo */
                ackedUpTo?: (Long|null);

                /** CloseSessionRequest held */
                held?: (Long[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a CloseSessionRequest. */
            type $Shape = palisade.v1.CloseSessionRequest.$Properties;
        }

        /**
         * Properties of a CloseSessionResponse.
         * @deprecated Use palisade.v1.CloseSessionResponse.$Properties instead.
         */
        interface ICloseSessionResponse extends palisade.v1.CloseSessionResponse.$Properties {
        }

        /** Represents a CloseSessionResponse. */
        class CloseSessionResponse {

            /**
             * Constructs a new CloseSessionResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.CloseSessionResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new CloseSessionResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns CloseSessionResponse instance
             */
            static create(properties: palisade.v1.CloseSessionResponse.$Shape): palisade.v1.CloseSessionResponse & palisade.v1.CloseSessionResponse.$Shape;
            static create(properties?: palisade.v1.CloseSessionResponse.$Properties): palisade.v1.CloseSessionResponse;

            /**
             * Encodes the specified CloseSessionResponse message. Does not implicitly {@link palisade.v1.CloseSessionResponse.verify|verify} messages.
             * @param message CloseSessionResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.CloseSessionResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified CloseSessionResponse message, length delimited. Does not implicitly {@link palisade.v1.CloseSessionResponse.verify|verify} messages.
             * @param message CloseSessionResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.CloseSessionResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CloseSessionResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.CloseSessionResponse & palisade.v1.CloseSessionResponse.$Shape} CloseSessionResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.CloseSessionResponse & palisade.v1.CloseSessionResponse.$Shape;

            /**
             * Decodes a CloseSessionResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.CloseSessionResponse & palisade.v1.CloseSessionResponse.$Shape} CloseSessionResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.CloseSessionResponse & palisade.v1.CloseSessionResponse.$Shape;

            /**
             * Verifies a CloseSessionResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a CloseSessionResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns CloseSessionResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.CloseSessionResponse;

            /**
             * Creates a plain object from a CloseSessionResponse message. Also converts values to other types if specified.
             * @param message CloseSessionResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.CloseSessionResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this CloseSessionResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for CloseSessionResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace CloseSessionResponse {

            /** Properties of a CloseSessionResponse. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a CloseSessionResponse. */
            type $Shape = palisade.v1.CloseSessionResponse.$Properties;
        }

        /** LockMode enum. */
        enum LockMode {

            /** LOCK_MODE_UNSPECIFIED value */
            LOCK_MODE_UNSPECIFIED = 0,

            /** LOCK_MODE_SHARED value */
            LOCK_MODE_SHARED = 1,

            /** LOCK_MODE_EXCLUSIVE value */
            LOCK_MODE_EXCLUSIVE = 2,

            /** LOCK_MODE_LEADER value */
            LOCK_MODE_LEADER = 3,

            /** LOCK_MODE_UPGRADEABLE value */
            LOCK_MODE_UPGRADEABLE = 4
        }

        /**
         * Properties of a LockTarget.
         * @deprecated Use palisade.v1.LockTarget.$Properties instead.
         */
        interface ILockTarget extends palisade.v1.LockTarget.$Properties {
        }

        /** Represents a LockTarget. */
        class LockTarget {

            /**
             * Constructs a new LockTarget.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.LockTarget.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** LockTarget lock. */
            lock: string;

            /** LockTarget mode. */
            mode: palisade.v1.LockMode;

            /** LockTarget permits. */
            permits?: (Long|null);

            /**
             * Creates a new LockTarget instance using the specified properties.
             * @param [properties] Properties to set
             * @returns LockTarget instance
             */
            static create(properties: palisade.v1.LockTarget.$Shape): palisade.v1.LockTarget & palisade.v1.LockTarget.$Shape;
            static create(properties?: palisade.v1.LockTarget.$Properties): palisade.v1.LockTarget;

            /**
             * Encodes the specified LockTarget message. Does not implicitly {@link palisade.v1.LockTarget.verify|verify} messages.
             * @param message LockTarget message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.LockTarget.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified LockTarget message, length delimited. Does not implicitly {@link palisade.v1.LockTarget.verify|verify} messages.
             * @param message LockTarget message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.LockTarget.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a LockTarget message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.LockTarget & palisade.v1.LockTarget.$Shape} LockTarget
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.LockTarget & palisade.v1.LockTarget.$Shape;

            /**
             * Decodes a LockTarget message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.LockTarget & palisade.v1.LockTarget.$Shape} LockTarget
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.LockTarget & palisade.v1.LockTarget.$Shape;

            /**
             * Verifies a LockTarget message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a LockTarget message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns LockTarget
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.LockTarget;

            /**
             * Creates a plain object from a LockTarget message. Also converts values to other types if specified.
             * @param message LockTarget
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.LockTarget, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this LockTarget to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for LockTarget
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace LockTarget {

            /** Properties of a LockTarget. */
            interface $Properties {

                /** LockTarget lock */
                lock?: (string|null);

                /** LockTarget mode */
                mode?: (palisade.v1.LockMode|null);

                /** LockTarget permits */
                permits?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a LockTarget. */
            type $Shape = palisade.v1.LockTarget.$Properties;
        }

        /**
         * Properties of an AcquireRequest.
         * @deprecated Use palisade.v1.AcquireRequest.$Properties instead.
         */
        interface IAcquireRequest extends palisade.v1.AcquireRequest.$Properties {
        }

        /** Represents an AcquireRequest. */
        class AcquireRequest {

            /**
             * Constructs a new AcquireRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.AcquireRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** AcquireRequest sessionId. */
            sessionId: Long;

            /** AcquireRequest lock. */
            lock: string;

            /** AcquireRequest waitMs. */
            waitMs: Long;

            /** AcquireRequest seq. */
            seq: Long;

            /** AcquireRequest ackedUpTo. */
            ackedUpTo: Long;

            /** AcquireRequest held. */
            held: Long[];

            /** AcquireRequest mode. */
            mode: palisade.v1.LockMode;

            /** AcquireRequest permits. */
            permits?: (Long|null);

            /** AcquireRequest moreLocks. */
            moreLocks: palisade.v1.LockTarget.$Properties[];

            /** AcquireRequest holderData. */
            holderData: Uint8Array;

            /** AcquireRequest holdMs. */
            holdMs: Long;

            /**
             * Creates a new AcquireRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns AcquireRequest instance
             */
            static create(properties: palisade.v1.AcquireRequest.$Shape): palisade.v1.AcquireRequest & palisade.v1.AcquireRequest.$Shape;
            static create(properties?: palisade.v1.AcquireRequest.$Properties): palisade.v1.AcquireRequest;

            /**
             * Encodes the specified AcquireRequest message. Does not implicitly {@link palisade.v1.AcquireRequest.verify|verify} messages.
             * @param message AcquireRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.AcquireRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified AcquireRequest message, length delimited. Does not implicitly {@link palisade.v1.AcquireRequest.verify|verify} messages.
             * @param message AcquireRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.AcquireRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an AcquireRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.AcquireRequest & palisade.v1.AcquireRequest.$Shape} AcquireRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.AcquireRequest & palisade.v1.AcquireRequest.$Shape;

            /**
             * Decodes an AcquireRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.AcquireRequest & palisade.v1.AcquireRequest.$Shape} AcquireRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.AcquireRequest & palisade.v1.AcquireRequest.$Shape;

            /**
             * Verifies an AcquireRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an AcquireRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns AcquireRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.AcquireRequest;

            /**
             * Creates a plain object from an AcquireRequest message. Also converts values to other types if specified.
             * @param message AcquireRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.AcquireRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this AcquireRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for AcquireRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace AcquireRequest {

            /** Properties of an AcquireRequest. */
            interface $Properties {

                /** AcquireRequest sessionId */
                sessionId?: (Long|null);

                /** AcquireRequest lock */
                lock?: (string|null);

                /** AcquireRequest waitMs */
                waitMs?: (Long|null);

                /** AcquireRequest seq */
                seq?: (Long|null);

                /** AcquireRequest ackedUpTo */
                ackedUpTo?: (Long|null);

                /** AcquireRequest held */
                held?: (Long[]|null);

                /** AcquireRequest mode */
                mode?: (palisade.v1.LockMode|null);

                /** AcquireRequest permits */
                permits?: (Long|null);

                /** AcquireRequest moreLocks */
                moreLocks?: (palisade.v1.LockTarget.$Properties[]|null);

                /** AcquireRequest holderData */
                holderData?: (Uint8Array|null);

                /** AcquireRequest holdMs */
                holdMs?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an AcquireRequest. */
            type $Shape = palisade.v1.AcquireRequest.$Properties;
        }

        /**
         * Properties of a LockGrant.
         * @deprecated Use palisade.v1.LockGrant.$Properties instead.
         */
        interface ILockGrant extends palisade.v1.LockGrant.$Properties {
        }

        /** Represents a LockGrant. */
        class LockGrant {

            /**
             * Constructs a new LockGrant.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.LockGrant.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** LockGrant lock. */
            lock: string;

            /** LockGrant token. */
            token: Long;

            /** LockGrant mode. */
            mode: palisade.v1.LockMode;

            /** LockGrant permits. */
            permits: number;

            /** LockGrant slot. */
            slot: number;

            /**
             * Creates a new LockGrant instance using the specified properties.
             * @param [properties] Properties to set
             * @returns LockGrant instance
             */
            static create(properties: palisade.v1.LockGrant.$Shape): palisade.v1.LockGrant & palisade.v1.LockGrant.$Shape;
            static create(properties?: palisade.v1.LockGrant.$Properties): palisade.v1.LockGrant;

            /**
             * Encodes the specified LockGrant message. Does not implicitly {@link palisade.v1.LockGrant.verify|verify} messages.
             * @param message LockGrant message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.LockGrant.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified LockGrant message, length delimited. Does not implicitly {@link palisade.v1.LockGrant.verify|verify} messages.
             * @param message LockGrant message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.LockGrant.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a LockGrant message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.LockGrant & palisade.v1.LockGrant.$Shape} LockGrant
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.LockGrant & palisade.v1.LockGrant.$Shape;

            /**
             * Decodes a LockGrant message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.LockGrant & palisade.v1.LockGrant.$Shape} LockGrant
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.LockGrant & palisade.v1.LockGrant.$Shape;

            /**
             * Verifies a LockGrant message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a LockGrant message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns LockGrant
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.LockGrant;

            /**
             * Creates a plain object from a LockGrant message. Also converts values to other types if specified.
             * @param message LockGrant
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.LockGrant, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this LockGrant to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for LockGrant
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace LockGrant {

            /** Properties of a LockGrant. */
            interface $Properties {

                /** LockGrant lock */
                lock?: (string|null);

                /** LockGrant token */
                token?: (Long|null);

                /** LockGrant mode */
                mode?: (palisade.v1.LockMode|null);

                /** LockGrant permits */
                permits?: (number|null);

                /** LockGrant slot */
                slot?: (number|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a LockGrant. */
            type $Shape = palisade.v1.LockGrant.$Properties;
        }

        /**
         * Properties of an AcquireResponse.
         * @deprecated Use palisade.v1.AcquireResponse.$Properties instead.
         */
        interface IAcquireResponse extends palisade.v1.AcquireResponse.$Properties {
        }

        /** Represents an AcquireResponse. */
        class AcquireResponse {

            /**
             * Constructs a new AcquireResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.AcquireResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** AcquireResponse acquired. */
            acquired: boolean;

            /** AcquireResponse token. */
            token: Long;

            /** AcquireResponse holder. */
            holder?: (palisade.v1.LockHolder.$Properties|null);

            /** AcquireResponse grants. */
            grants: palisade.v1.LockGrant.$Properties[];

            /** AcquireResponse blockedLock. */
            blockedLock: string;

            /** AcquireResponse cancelled. */
            cancelled: boolean;

            /**
             * Creates a new AcquireResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns AcquireResponse instance
             */
            static create(properties: palisade.v1.AcquireResponse.$Shape): palisade.v1.AcquireResponse & palisade.v1.AcquireResponse.$Shape;
            static create(properties?: palisade.v1.AcquireResponse.$Properties): palisade.v1.AcquireResponse;

            /**
             * Encodes the specified AcquireResponse message. Does not implicitly {@link palisade.v1.AcquireResponse.verify|verify} messages.
             * @param message AcquireResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.AcquireResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified AcquireResponse message, length delimited. Does not implicitly {@link palisade.v1.AcquireResponse.verify|verify} messages.
             * @param message AcquireResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.AcquireResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an AcquireResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.AcquireResponse & palisade.v1.AcquireResponse.$Shape} AcquireResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.AcquireResponse & palisade.v1.AcquireResponse.$Shape;

            /**
             * Decodes an AcquireResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.AcquireResponse & palisade.v1.AcquireResponse.$Shape} AcquireResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.AcquireResponse & palisade.v1.AcquireResponse.$Shape;

            /**
             * Verifies an AcquireResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an AcquireResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns AcquireResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.AcquireResponse;

            /**
             * Creates a plain object from an AcquireResponse message. Also converts values to other types if specified.
             * @param message AcquireResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.AcquireResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this AcquireResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for AcquireResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace AcquireResponse {

            /** Properties of an AcquireResponse. */
            interface $Properties {

                /** AcquireResponse acquired */
                acquired?: (boolean|null);

                /** AcquireResponse token */
                token?: (Long|null);

                /** AcquireResponse holder */
                holder?: (palisade.v1.LockHolder.$Properties|null);

                /** AcquireResponse grants */
                grants?: (palisade.v1.LockGrant.$Properties[]|null);

                /** AcquireResponse blockedLock */
                blockedLock?: (string|null);

                /** AcquireResponse cancelled */
                cancelled?: (boolean|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an AcquireResponse. */
            type $Shape = palisade.v1.AcquireResponse.$Properties;
        }

        /**
         * Properties of a CancelWaitRequest.
         * @deprecated Use palisade.v1.CancelWaitRequest.$Properties instead.
         */
        interface ICancelWaitRequest extends palisade.v1.CancelWaitRequest.$Properties {
        }

        /** Represents a CancelWaitRequest. */
        class CancelWaitRequest {

            /**
             * Constructs a new CancelWaitRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.CancelWaitRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** CancelWaitRequest sessionId. */
            sessionId: Long;

            /** CancelWaitRequest lock. */
            lock: string;

            /** CancelWaitRequest acquireSeq. */
            acquireSeq: Long;

            /**
             * Creates a new CancelWaitRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns CancelWaitRequest instance
             */
            static create(properties: palisade.v1.CancelWaitRequest.$Shape): palisade.v1.CancelWaitRequest & palisade.v1.CancelWaitRequest.$Shape;
            static create(properties?: palisade.v1.CancelWaitRequest.$Properties): palisade.v1.CancelWaitRequest;

            /**
             * Encodes the specified CancelWaitRequest message. Does not implicitly {@link palisade.v1.CancelWaitRequest.verify|verify} messages.
             * @param message CancelWaitRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.CancelWaitRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified CancelWaitRequest message, length delimited. Does not implicitly {@link palisade.v1.CancelWaitRequest.verify|verify} messages.
             * @param message CancelWaitRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.CancelWaitRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CancelWaitRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.CancelWaitRequest & palisade.v1.CancelWaitRequest.$Shape} CancelWaitRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.CancelWaitRequest & palisade.v1.CancelWaitRequest.$Shape;

            /**
             * Decodes a CancelWaitRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.CancelWaitRequest & palisade.v1.CancelWaitRequest.$Shape} CancelWaitRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.CancelWaitRequest & palisade.v1.CancelWaitRequest.$Shape;

            /**
             * Verifies a CancelWaitRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a CancelWaitRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns CancelWaitRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.CancelWaitRequest;

            /**
             * Creates a plain object from a CancelWaitRequest message. Also converts values to other types if specified.
             * @param message CancelWaitRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.CancelWaitRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this CancelWaitRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for CancelWaitRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace CancelWaitRequest {

            /** Properties of a CancelWaitRequest. */
            interface $Properties {

                /** CancelWaitRequest sessionId */
                sessionId?: (Long|null);

                /** CancelWaitRequest lock */
                lock?: (string|null);

                /** CancelWaitRequest acquireSeq */
                acquireSeq?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a CancelWaitRequest. */
            type $Shape = palisade.v1.CancelWaitRequest.$Properties;
        }

        /** CancelWaitOutcome enum. */
        enum CancelWaitOutcome {

            /** CANCEL_WAIT_OUTCOME_UNSPECIFIED value */
            CANCEL_WAIT_OUTCOME_UNSPECIFIED = 0,

            /** CANCEL_WAIT_OUTCOME_CANCELLED value */
            CANCEL_WAIT_OUTCOME_CANCELLED = 1,

            /** CANCEL_WAIT_OUTCOME_GRANTED value */
            CANCEL_WAIT_OUTCOME_GRANTED = 2,

            /** CANCEL_WAIT_OUTCOME_NOT_ACQUIRED value */
            CANCEL_WAIT_OUTCOME_NOT_ACQUIRED = 3
        }

        /**
         * Properties of a CancelWaitResponse.
         * @deprecated Use palisade.v1.CancelWaitResponse.$Properties instead.
         */
        interface ICancelWaitResponse extends palisade.v1.CancelWaitResponse.$Properties {
        }

        /** Represents a CancelWaitResponse. */
        class CancelWaitResponse {

            /**
             * Constructs a new CancelWaitResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.CancelWaitResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** CancelWaitResponse outcome. */
            outcome: palisade.v1.CancelWaitOutcome;

            /** CancelWaitResponse token. */
            token: Long;

            /**
             * Creates a new CancelWaitResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns CancelWaitResponse instance
             */
            static create(properties: palisade.v1.CancelWaitResponse.$Shape): palisade.v1.CancelWaitResponse & palisade.v1.CancelWaitResponse.$Shape;
            static create(properties?: palisade.v1.CancelWaitResponse.$Properties): palisade.v1.CancelWaitResponse;

            /**
             * Encodes the specified CancelWaitResponse message. Does not implicitly {@link palisade.v1.CancelWaitResponse.verify|verify} messages.
             * @param message CancelWaitResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.CancelWaitResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified CancelWaitResponse message, length delimited. Does not implicitly {@link palisade.v1.CancelWaitResponse.verify|verify} messages.
             * @param message CancelWaitResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.CancelWaitResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CancelWaitResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.CancelWaitResponse & palisade.v1.CancelWaitResponse.$Shape} CancelWaitResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.CancelWaitResponse & palisade.v1.CancelWaitResponse.$Shape;

            /**
             * Decodes a CancelWaitResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.CancelWaitResponse & palisade.v1.CancelWaitResponse.$Shape} CancelWaitResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.CancelWaitResponse & palisade.v1.CancelWaitResponse.$Shape;

            /**
             * Verifies a CancelWaitResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a CancelWaitResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns CancelWaitResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.CancelWaitResponse;

            /**
             * Creates a plain object from a CancelWaitResponse message. Also converts values to other types if specified.
             * @param message CancelWaitResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.CancelWaitResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this CancelWaitResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for CancelWaitResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace CancelWaitResponse {

            /** Properties of a CancelWaitResponse. */
            interface $Properties {

                /** CancelWaitResponse outcome */
                outcome?: (palisade.v1.CancelWaitOutcome|null);

                /** CancelWaitResponse token */
                token?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a CancelWaitResponse. */
            type $Shape = palisade.v1.CancelWaitResponse.$Properties;
        }

        /**
         * Properties of a ReleaseRequest.
         * @deprecated Use palisade.v1.ReleaseRequest.$Properties instead.
         */
        interface IReleaseRequest extends palisade.v1.ReleaseRequest.$Properties {
        }

        /** Represents a ReleaseRequest. */
        class ReleaseRequest {

            /**
             * Constructs a new ReleaseRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ReleaseRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ReleaseRequest sessionId. */
            sessionId: Long;

            /** ReleaseRequest lock. */
            lock: string;

            /** ReleaseRequest token. */
            token: Long;

            /** ReleaseRequest seq. */
            seq: Long;

            /** ReleaseRequest ackedUpTo. */
            ackedUpTo: Long;

            /** ReleaseRequest held. */
            held: Long[];

            /** ReleaseRequest successorSessionId. */
            successorSessionId: Long;

            /**
             * Creates a new ReleaseRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ReleaseRequest instance
             */
            static create(properties: palisade.v1.ReleaseRequest.$Shape): palisade.v1.ReleaseRequest & palisade.v1.ReleaseRequest.$Shape;
            static create(properties?: palisade.v1.ReleaseRequest.$Properties): palisade.v1.ReleaseRequest;

            /**
             * Encodes the specified ReleaseRequest message. Does not implicitly {@link palisade.v1.ReleaseRequest.verify|verify} messages.
             * @param message ReleaseRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ReleaseRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ReleaseRequest message, length delimited. Does not implicitly {@link palisade.v1.ReleaseRequest.verify|verify} messages.
             * @param message ReleaseRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ReleaseRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ReleaseRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ReleaseRequest & palisade.v1.ReleaseRequest.$Shape} ReleaseRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ReleaseRequest & palisade.v1.ReleaseRequest.$Shape;

            /**
             * Decodes a ReleaseRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ReleaseRequest & palisade.v1.ReleaseRequest.$Shape} ReleaseRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ReleaseRequest & palisade.v1.ReleaseRequest.$Shape;

            /**
             * Verifies a ReleaseRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ReleaseRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ReleaseRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ReleaseRequest;

            /**
             * Creates a plain object from a ReleaseRequest message. Also converts values to other types if specified.
             * @param message ReleaseRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ReleaseRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ReleaseRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ReleaseRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ReleaseRequest {

            /** Properties of a ReleaseRequest. */
            interface $Properties {

                /** ReleaseRequest sessionId */
                sessionId?: (Long|null);

                /** ReleaseRequest lock */
                lock?: (string|null);

                /** ReleaseRequest token */
                token?: (Long|null);

                /** ReleaseRequest seq */
                seq?: (Long|null);

                /** ReleaseRequest ackedUpTo */
                ackedUpTo?: (Long|null);

                /** ReleaseRequest held */
                held?: (Long[]|null);

                /** ReleaseRequest successorSessionId */
                successorSessionId?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ReleaseRequest. */
            type $Shape = palisade.v1.ReleaseRequest.$Properties;
        }

        /**
         * Properties of a ReleaseResponse.
         * @deprecated Use palisade.v1.ReleaseResponse.$Properties instead.
         */
        interface IReleaseResponse extends palisade.v1.ReleaseResponse.$Properties {
        }

        /** Represents a ReleaseResponse. */
        class ReleaseResponse {

            /**
             * Constructs a new ReleaseResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ReleaseResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new ReleaseResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ReleaseResponse instance
             */
            static create(properties: palisade.v1.ReleaseResponse.$Shape): palisade.v1.ReleaseResponse & palisade.v1.ReleaseResponse.$Shape;
            static create(properties?: palisade.v1.ReleaseResponse.$Properties): palisade.v1.ReleaseResponse;

            /**
             * Encodes the specified ReleaseResponse message. Does not implicitly {@link palisade.v1.ReleaseResponse.verify|verify} messages.
             * @param message ReleaseResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ReleaseResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ReleaseResponse message, length delimited. Does not implicitly {@link palisade.v1.ReleaseResponse.verify|verify} messages.
             * @param message ReleaseResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ReleaseResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ReleaseResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ReleaseResponse & palisade.v1.ReleaseResponse.$Shape} ReleaseResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ReleaseResponse & palisade.v1.ReleaseResponse.$Shape;

            /**
             * Decodes a ReleaseResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ReleaseResponse & palisade.v1.ReleaseResponse.$Shape} ReleaseResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ReleaseResponse & palisade.v1.ReleaseResponse.$Shape;

            /**
             * Verifies a ReleaseResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ReleaseResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ReleaseResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ReleaseResponse;

            /**
             * Creates a plain object from a ReleaseResponse message. Also converts values to other types if specified.
             * @param message ReleaseResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ReleaseResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ReleaseResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ReleaseResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ReleaseResponse {

            /** Properties of a ReleaseResponse. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ReleaseResponse. */
            type $Shape = palisade.v1.ReleaseResponse.$Properties;
        }

        /**
         * Properties of a LockHolder.
         * @deprecated Use palisade.v1.LockHolder.$Properties instead.
         */
        interface ILockHolder extends palisade.v1.LockHolder.$Properties {
        }

        /** Represents a LockHolder. */
        class LockHolder {

            /**
             * Constructs a new LockHolder.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.LockHolder.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** LockHolder sessionId. */
            sessionId: Long;

            /** LockHolder clientName. */
            clientName: string;

            /** LockHolder token. */
            token: Long;

            /** LockHolder grantedIndex. */
            grantedIndex: Long;

            /** LockHolder mode. */
            mode: palisade.v1.LockMode;

            /** LockHolder permits. */
            permits: number;

            /** LockHolder slot. */
            slot: number;

            /** LockHolder holderData. */
            holderData: Uint8Array;

            /** LockHolder holdMs. */
            holdMs: Long;

            /** LockHolder upgradingSinceIndex. */
            upgradingSinceIndex: Long;

            /**
             * Creates a new LockHolder instance using the specified properties.
             * @param [properties] Properties to set
             * @returns LockHolder instance
             */
            static create(properties: palisade.v1.LockHolder.$Shape): palisade.v1.LockHolder & palisade.v1.LockHolder.$Shape;
            static create(properties?: palisade.v1.LockHolder.$Properties): palisade.v1.LockHolder;

            /**
             * Encodes the specified LockHolder message. Does not implicitly {@link palisade.v1.LockHolder.verify|verify} messages.
             * @param message LockHolder message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.LockHolder.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified LockHolder message, length delimited. Does not implicitly {@link palisade.v1.LockHolder.verify|verify} messages.
             * @param message LockHolder message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.LockHolder.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a LockHolder message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.LockHolder & palisade.v1.LockHolder.$Shape} LockHolder
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.LockHolder & palisade.v1.LockHolder.$Shape;

            /**
             * Decodes a LockHolder message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.LockHolder & palisade.v1.LockHolder.$Shape} LockHolder
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.LockHolder & palisade.v1.LockHolder.$Shape;

            /**
             * Verifies a LockHolder message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a LockHolder message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns LockHolder
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.LockHolder;

            /**
             * Creates a plain object from a LockHolder message. Also converts values to other types if specified.
             * @param message LockHolder
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.LockHolder, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this LockHolder to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for LockHolder
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace LockHolder {

            /** Properties of a LockHolder. */
            interface $Properties {

                /** LockHolder sessionId */
                sessionId?: (Long|null);

                /** LockHolder clientName */
                clientName?: (string|null);

                /** LockHolder token */
                token?: (Long|null);

                /** LockHolder grantedIndex */
                grantedIndex?: (Long|null);

                /** LockHolder mode */
                mode?: (palisade.v1.LockMode|null);

                /** LockHolder permits */
                permits?: (number|null);

                /** LockHolder slot */
                slot?: (number|null);

                /** LockHolder holderData */
                holderData?: (Uint8Array|null);

                /** LockHolder holdMs */
                holdMs?: (Long|null);

                /** LockHolder upgradingSinceIndex */
                upgradingSinceIndex?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a LockHolder. */
            type $Shape = palisade.v1.LockHolder.$Properties;
        }

        /**
         * Properties of a LockWaiter.
         * @deprecated Use palisade.v1.LockWaiter.$Properties instead.
         */
        interface ILockWaiter extends palisade.v1.LockWaiter.$Properties {
        }

        /** Represents a LockWaiter. */
        class LockWaiter {

            /**
             * Constructs a new LockWaiter.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.LockWaiter.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** LockWaiter sessionId. */
            sessionId: Long;

            /** LockWaiter clientName. */
            clientName: string;

            /** LockWaiter waitingSinceIndex. */
            waitingSinceIndex: Long;

            /** LockWaiter mode. */
            mode: palisade.v1.LockMode;

            /** LockWaiter permits. */
            permits: number;

            /** LockWaiter locks. */
            locks: palisade.v1.LockTarget.$Properties[];

            /** LockWaiter holderData. */
            holderData: Uint8Array;

            /** LockWaiter holdMs. */
            holdMs: Long;

            /**
             * Creates a new LockWaiter instance using the specified properties.
             * @param [properties] Properties to set
             * @returns LockWaiter instance
             */
            static create(properties: palisade.v1.LockWaiter.$Shape): palisade.v1.LockWaiter & palisade.v1.LockWaiter.$Shape;
            static create(properties?: palisade.v1.LockWaiter.$Properties): palisade.v1.LockWaiter;

            /**
             * Encodes the specified LockWaiter message. Does not implicitly {@link palisade.v1.LockWaiter.verify|verify} messages.
             * @param message LockWaiter message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.LockWaiter.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified LockWaiter message, length delimited. Does not implicitly {@link palisade.v1.LockWaiter.verify|verify} messages.
             * @param message LockWaiter message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.LockWaiter.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a LockWaiter message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.LockWaiter & palisade.v1.LockWaiter.$Shape} LockWaiter
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.LockWaiter & palisade.v1.LockWaiter.$Shape;

            /**
             * Decodes a LockWaiter message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.LockWaiter & palisade.v1.LockWaiter.$Shape} LockWaiter
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.LockWaiter & palisade.v1.LockWaiter.$Shape;

            /**
             * Verifies a LockWaiter message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a LockWaiter message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns LockWaiter
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.LockWaiter;

            /**
             * Creates a plain object from a LockWaiter message. Also converts values to other types if specified.
             * @param message LockWaiter
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.LockWaiter, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this LockWaiter to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for LockWaiter
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace LockWaiter {

            /** Properties of a LockWaiter. */
            interface $Properties {

                /** LockWaiter sessionId */
                sessionId?: (Long|null);

                /** LockWaiter clientName */
                clientName?: (string|null);

                /** LockWaiter waitingSinceIndex */
                waitingSinceIndex?: (Long|null);

                /** LockWaiter mode */
                mode?: (palisade.v1.LockMode|null);

                /** LockWaiter permits */
                permits?: (number|null);

                /** LockWaiter locks */
                locks?: (palisade.v1.LockTarget.$Properties[]|null);

                /** LockWaiter holderData */
                holderData?: (Uint8Array|null);

                /** LockWaiter holdMs */
                holdMs?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a LockWaiter. */
            type $Shape = palisade.v1.LockWaiter.$Properties;
        }

        /** LockKind enum. */
        enum LockKind {

            /** LOCK_KIND_UNSPECIFIED value */
            LOCK_KIND_UNSPECIFIED = 0,

            /** LOCK_KIND_SEMAPHORE value */
            LOCK_KIND_SEMAPHORE = 1,

            /** LOCK_KIND_ELECTION value */
            LOCK_KIND_ELECTION = 2
        }

        /**
         * Properties of a HolderCursor.
         * @deprecated Use palisade.v1.HolderCursor.$Properties instead.
         */
        interface IHolderCursor extends palisade.v1.HolderCursor.$Properties {
        }

        /** Represents a HolderCursor. */
        class HolderCursor {

            /**
             * Constructs a new HolderCursor.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.HolderCursor.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** HolderCursor token. */
            token: Long;

            /** HolderCursor sessionId. */
            sessionId: Long;

            /**
             * Creates a new HolderCursor instance using the specified properties.
             * @param [properties] Properties to set
             * @returns HolderCursor instance
             */
            static create(properties: palisade.v1.HolderCursor.$Shape): palisade.v1.HolderCursor & palisade.v1.HolderCursor.$Shape;
            static create(properties?: palisade.v1.HolderCursor.$Properties): palisade.v1.HolderCursor;

            /**
             * Encodes the specified HolderCursor message. Does not implicitly {@link palisade.v1.HolderCursor.verify|verify} messages.
             * @param message HolderCursor message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.HolderCursor.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified HolderCursor message, length delimited. Does not implicitly {@link palisade.v1.HolderCursor.verify|verify} messages.
             * @param message HolderCursor message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.HolderCursor.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a HolderCursor message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.HolderCursor & palisade.v1.HolderCursor.$Shape} HolderCursor
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.HolderCursor & palisade.v1.HolderCursor.$Shape;

            /**
             * Decodes a HolderCursor message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.HolderCursor & palisade.v1.HolderCursor.$Shape} HolderCursor
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.HolderCursor & palisade.v1.HolderCursor.$Shape;

            /**
             * Verifies a HolderCursor message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a HolderCursor message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns HolderCursor
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.HolderCursor;

            /**
             * Creates a plain object from a HolderCursor message. Also converts values to other types if specified.
             * @param message HolderCursor
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.HolderCursor, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this HolderCursor to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for HolderCursor
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace HolderCursor {

            /** Properties of a HolderCursor. */
            interface $Properties {

                /** HolderCursor token */
                token?: (Long|null);

                /** HolderCursor sessionId */
                sessionId?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a HolderCursor. */
            type $Shape = palisade.v1.HolderCursor.$Properties;
        }

        /**
         * Properties of a GetLockRequest.
         * @deprecated Use palisade.v1.GetLockRequest.$Properties instead.
         */
        interface IGetLockRequest extends palisade.v1.GetLockRequest.$Properties {
        }

        /** Represents a GetLockRequest. */
        class GetLockRequest {

            /**
             * Constructs a new GetLockRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.GetLockRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** GetLockRequest lock. */
            lock: string;

            /** GetLockRequest holderLimit. */
            holderLimit?: (number|null);

            /** GetLockRequest waiterLimit. */
            waiterLimit?: (number|null);

            /** GetLockRequest holdersAfter. */
            holdersAfter?: (palisade.v1.HolderCursor.$Properties|null);

            /** GetLockRequest waitersAfterIndex. */
            waitersAfterIndex: Long;

            /**
             * Creates a new GetLockRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns GetLockRequest instance
             */
            static create(properties: palisade.v1.GetLockRequest.$Shape): palisade.v1.GetLockRequest & palisade.v1.GetLockRequest.$Shape;
            static create(properties?: palisade.v1.GetLockRequest.$Properties): palisade.v1.GetLockRequest;

            /**
             * Encodes the specified GetLockRequest message. Does not implicitly {@link palisade.v1.GetLockRequest.verify|verify} messages.
             * @param message GetLockRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.GetLockRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified GetLockRequest message, length delimited. Does not implicitly {@link palisade.v1.GetLockRequest.verify|verify} messages.
             * @param message GetLockRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.GetLockRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a GetLockRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.GetLockRequest & palisade.v1.GetLockRequest.$Shape} GetLockRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.GetLockRequest & palisade.v1.GetLockRequest.$Shape;

            /**
             * Decodes a GetLockRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.GetLockRequest & palisade.v1.GetLockRequest.$Shape} GetLockRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.GetLockRequest & palisade.v1.GetLockRequest.$Shape;

            /**
             * Verifies a GetLockRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a GetLockRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns GetLockRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.GetLockRequest;

            /**
             * Creates a plain object from a GetLockRequest message. Also converts values to other types if specified.
             * @param message GetLockRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.GetLockRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this GetLockRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for GetLockRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetLockRequest {

            /** Properties of a GetLockRequest. */
            interface $Properties {

                /** GetLockRequest lock */
                lock?: (string|null);

                /** GetLockRequest holderLimit */
                holderLimit?: (number|null);

                /** GetLockRequest waiterLimit */
                waiterLimit?: (number|null);

                /** GetLockRequest holdersAfter */
                holdersAfter?: (palisade.v1.HolderCursor.$Properties|null);

                /** GetLockRequest waitersAfterIndex */
                waitersAfterIndex?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a GetLockRequest. */
            type $Shape = palisade.v1.GetLockRequest.$Properties;
        }

        /**
         * Properties of a GetLockResponse.
         * @deprecated Use palisade.v1.GetLockResponse.$Properties instead.
         */
        interface IGetLockResponse extends palisade.v1.GetLockResponse.$Properties {
        }

        /** Represents a GetLockResponse. */
        class GetLockResponse {

            /**
             * Constructs a new GetLockResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.GetLockResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** GetLockResponse lock. */
            lock: string;

            /** GetLockResponse holder. */
            holder?: (palisade.v1.LockHolder.$Properties|null);

            /** GetLockResponse waiters. */
            waiters: palisade.v1.LockWaiter.$Properties[];

            /** GetLockResponse holders. */
            holders: palisade.v1.LockHolder.$Properties[];

            /** GetLockResponse kind. */
            kind: palisade.v1.LockKind;

            /** GetLockResponse permits. */
            permits: number;

            /** GetLockResponse holderCount. */
            holderCount: number;

            /** GetLockResponse waiterCount. */
            waiterCount: number;

            /** GetLockResponse nextHoldersAfter. */
            nextHoldersAfter?: (palisade.v1.HolderCursor.$Properties|null);

            /** GetLockResponse nextWaitersAfterIndex. */
            nextWaitersAfterIndex: Long;

            /**
             * Creates a new GetLockResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns GetLockResponse instance
             */
            static create(properties: palisade.v1.GetLockResponse.$Shape): palisade.v1.GetLockResponse & palisade.v1.GetLockResponse.$Shape;
            static create(properties?: palisade.v1.GetLockResponse.$Properties): palisade.v1.GetLockResponse;

            /**
             * Encodes the specified GetLockResponse message. Does not implicitly {@link palisade.v1.GetLockResponse.verify|verify} messages.
             * @param message GetLockResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.GetLockResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified GetLockResponse message, length delimited. Does not implicitly {@link palisade.v1.GetLockResponse.verify|verify} messages.
             * @param message GetLockResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.GetLockResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a GetLockResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.GetLockResponse & palisade.v1.GetLockResponse.$Shape} GetLockResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.GetLockResponse & palisade.v1.GetLockResponse.$Shape;

            /**
             * Decodes a GetLockResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.GetLockResponse & palisade.v1.GetLockResponse.$Shape} GetLockResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.GetLockResponse & palisade.v1.GetLockResponse.$Shape;

            /**
             * Verifies a GetLockResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a GetLockResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns GetLockResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.GetLockResponse;

            /**
             * Creates a plain object from a GetLockResponse message. Also converts values to other types if specified.
             * @param message GetLockResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.GetLockResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this GetLockResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for GetLockResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetLockResponse {

            /** Properties of a GetLockResponse. */
            interface $Properties {

                /** GetLockResponse lock */
                lock?: (string|null);

                /** GetLockResponse holder */
                holder?: (palisade.v1.LockHolder.$Properties|null);

                /** GetLockResponse waiters */
                waiters?: (palisade.v1.LockWaiter.$Properties[]|null);

                /** GetLockResponse holders */
                holders?: (palisade.v1.LockHolder.$Properties[]|null);

                /** GetLockResponse kind */
                kind?: (palisade.v1.LockKind|null);

                /** GetLockResponse permits */
                permits?: (number|null);

                /** GetLockResponse holderCount */
                holderCount?: (number|null);

                /** GetLockResponse waiterCount */
                waiterCount?: (number|null);

                /** GetLockResponse nextHoldersAfter */
                nextHoldersAfter?: (palisade.v1.HolderCursor.$Properties|null);

                /** GetLockResponse nextWaitersAfterIndex */
                nextWaitersAfterIndex?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a GetLockResponse. */
            type $Shape = palisade.v1.GetLockResponse.$Properties;
        }

        /**
         * Properties of a ListLocksRequest.
         * @deprecated Use palisade.v1.ListLocksRequest.$Properties instead.
         */
        interface IListLocksRequest extends palisade.v1.ListLocksRequest.$Properties {
        }

        /** Represents a ListLocksRequest. */
        class ListLocksRequest {

            /**
             * Constructs a new ListLocksRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ListLocksRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ListLocksRequest prefix. */
            prefix: string;

            /** ListLocksRequest after. */
            after: string;

            /** ListLocksRequest limit. */
            limit: number;

            /**
             * Creates a new ListLocksRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ListLocksRequest instance
             */
            static create(properties: palisade.v1.ListLocksRequest.$Shape): palisade.v1.ListLocksRequest & palisade.v1.ListLocksRequest.$Shape;
            static create(properties?: palisade.v1.ListLocksRequest.$Properties): palisade.v1.ListLocksRequest;

            /**
             * Encodes the specified ListLocksRequest message. Does not implicitly {@link palisade.v1.ListLocksRequest.verify|verify} messages.
             * @param message ListLocksRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ListLocksRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ListLocksRequest message, length delimited. Does not implicitly {@link palisade.v1.ListLocksRequest.verify|verify} messages.
             * @param message ListLocksRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ListLocksRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ListLocksRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ListLocksRequest & palisade.v1.ListLocksRequest.$Shape} ListLocksRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ListLocksRequest & palisade.v1.ListLocksRequest.$Shape;

            /**
             * Decodes a ListLocksRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ListLocksRequest & palisade.v1.ListLocksRequest.$Shape} ListLocksRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ListLocksRequest & palisade.v1.ListLocksRequest.$Shape;

            /**
             * Verifies a ListLocksRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ListLocksRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ListLocksRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ListLocksRequest;

            /**
             * Creates a plain object from a ListLocksRequest message. Also converts values to other types if specified.
             * @param message ListLocksRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ListLocksRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ListLocksRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ListLocksRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListLocksRequest {

            /** Properties of a ListLocksRequest. */
            interface $Properties {

                /** ListLocksRequest prefix */
                prefix?: (string|null);

                /** ListLocksRequest after */
                after?: (string|null);

                /** ListLocksRequest limit */
                limit?: (number|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ListLocksRequest. */
            type $Shape = palisade.v1.ListLocksRequest.$Properties;
        }

        /**
         * Properties of a LockSummary.
         * @deprecated Use palisade.v1.LockSummary.$Properties instead.
         */
        interface ILockSummary extends palisade.v1.LockSummary.$Properties {
        }

        /** Represents a LockSummary. */
        class LockSummary {

            /**
             * Constructs a new LockSummary.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.LockSummary.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** LockSummary lock. */
            lock: string;

            /** LockSummary holder. */
            holder?: (palisade.v1.LockHolder.$Properties|null);

            /** LockSummary waiterCount. */
            waiterCount: number;

            /** LockSummary holders. */
            holders: palisade.v1.LockHolder.$Properties[];

            /** LockSummary kind. */
            kind: palisade.v1.LockKind;

            /** LockSummary permits. */
            permits: number;

            /** LockSummary holderCount. */
            holderCount: number;

            /** LockSummary nextHoldersAfter. */
            nextHoldersAfter?: (palisade.v1.HolderCursor.$Properties|null);

            /**
             * Creates a new LockSummary instance using the specified properties.
             * @param [properties] Properties to set
             * @returns LockSummary instance
             */
            static create(properties: palisade.v1.LockSummary.$Shape): palisade.v1.LockSummary & palisade.v1.LockSummary.$Shape;
            static create(properties?: palisade.v1.LockSummary.$Properties): palisade.v1.LockSummary;

            /**
             * Encodes the specified LockSummary message. Does not implicitly {@link palisade.v1.LockSummary.verify|verify} messages.
             * @param message LockSummary message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.LockSummary.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified LockSummary message, length delimited. Does not implicitly {@link palisade.v1.LockSummary.verify|verify} messages.
             * @param message LockSummary message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.LockSummary.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a LockSummary message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.LockSummary & palisade.v1.LockSummary.$Shape} LockSummary
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.LockSummary & palisade.v1.LockSummary.$Shape;

            /**
             * Decodes a LockSummary message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.LockSummary & palisade.v1.LockSummary.$Shape} LockSummary
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.LockSummary & palisade.v1.LockSummary.$Shape;

            /**
             * Verifies a LockSummary message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a LockSummary message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns LockSummary
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.LockSummary;

            /**
             * Creates a plain object from a LockSummary message. Also converts values to other types if specified.
             * @param message LockSummary
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.LockSummary, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this LockSummary to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for LockSummary
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace LockSummary {

            /** Properties of a LockSummary. */
            interface $Properties {

                /** LockSummary lock */
                lock?: (string|null);

                /** LockSummary holder */
                holder?: (palisade.v1.LockHolder.$Properties|null);

                /** LockSummary waiterCount */
                waiterCount?: (number|null);

                /** LockSummary holders */
                holders?: (palisade.v1.LockHolder.$Properties[]|null);

                /** LockSummary kind */
                kind?: (palisade.v1.LockKind|null);

                /** LockSummary permits */
                permits?: (number|null);

                /** LockSummary holderCount */
                holderCount?: (number|null);

                /** LockSummary nextHoldersAfter */
                nextHoldersAfter?: (palisade.v1.HolderCursor.$Properties|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a LockSummary. */
            type $Shape = palisade.v1.LockSummary.$Properties;
        }

        /**
         * Properties of a ListLocksResponse.
         * @deprecated Use palisade.v1.ListLocksResponse.$Properties instead.
         */
        interface IListLocksResponse extends palisade.v1.ListLocksResponse.$Properties {
        }

        /** Represents a ListLocksResponse. */
        class ListLocksResponse {

            /**
             * Constructs a new ListLocksResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ListLocksResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ListLocksResponse locks. */
            locks: palisade.v1.LockSummary.$Properties[];

            /** ListLocksResponse nextAfter. */
            nextAfter: string;

            /**
             * Creates a new ListLocksResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ListLocksResponse instance
             */
            static create(properties: palisade.v1.ListLocksResponse.$Shape): palisade.v1.ListLocksResponse & palisade.v1.ListLocksResponse.$Shape;
            static create(properties?: palisade.v1.ListLocksResponse.$Properties): palisade.v1.ListLocksResponse;

            /**
             * Encodes the specified ListLocksResponse message. Does not implicitly {@link palisade.v1.ListLocksResponse.verify|verify} messages.
             * @param message ListLocksResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ListLocksResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ListLocksResponse message, length delimited. Does not implicitly {@link palisade.v1.ListLocksResponse.verify|verify} messages.
             * @param message ListLocksResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ListLocksResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ListLocksResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ListLocksResponse & palisade.v1.ListLocksResponse.$Shape} ListLocksResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ListLocksResponse & palisade.v1.ListLocksResponse.$Shape;

            /**
             * Decodes a ListLocksResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ListLocksResponse & palisade.v1.ListLocksResponse.$Shape} ListLocksResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ListLocksResponse & palisade.v1.ListLocksResponse.$Shape;

            /**
             * Verifies a ListLocksResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ListLocksResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ListLocksResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ListLocksResponse;

            /**
             * Creates a plain object from a ListLocksResponse message. Also converts values to other types if specified.
             * @param message ListLocksResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ListLocksResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ListLocksResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ListLocksResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListLocksResponse {

            /** Properties of a ListLocksResponse. */
            interface $Properties {

                /** ListLocksResponse locks */
                locks?: (palisade.v1.LockSummary.$Properties[]|null);

                /** ListLocksResponse nextAfter */
                nextAfter?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ListLocksResponse. */
            type $Shape = palisade.v1.ListLocksResponse.$Properties;
        }

        /**
         * Properties of a SessionInfo.
         * @deprecated Use palisade.v1.SessionInfo.$Properties instead.
         */
        interface ISessionInfo extends palisade.v1.SessionInfo.$Properties {
        }

        /** Represents a SessionInfo. */
        class SessionInfo {

            /**
             * Constructs a new SessionInfo.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.SessionInfo.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** SessionInfo sessionId. */
            sessionId: Long;

            /** SessionInfo clientName. */
            clientName: string;

            /** SessionInfo ttlMs. */
            ttlMs: Long;

            /** SessionInfo openedIndex. */
            openedIndex: Long;

            /** SessionInfo heldLocks. */
            heldLocks: string[];

            /** SessionInfo waitingLocks. */
            waitingLocks: string[];

            /**
             * Creates a new SessionInfo instance using the specified properties.
             * @param [properties] Properties to set
             * @returns SessionInfo instance
             */
            static create(properties: palisade.v1.SessionInfo.$Shape): palisade.v1.SessionInfo & palisade.v1.SessionInfo.$Shape;
            static create(properties?: palisade.v1.SessionInfo.$Properties): palisade.v1.SessionInfo;

            /**
             * Encodes the specified SessionInfo message. Does not implicitly {@link palisade.v1.SessionInfo.verify|verify} messages.
             * @param message SessionInfo message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.SessionInfo.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified SessionInfo message, length delimited. Does not implicitly {@link palisade.v1.SessionInfo.verify|verify} messages.
             * @param message SessionInfo message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.SessionInfo.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a SessionInfo message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.SessionInfo & palisade.v1.SessionInfo.$Shape} SessionInfo
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.SessionInfo & palisade.v1.SessionInfo.$Shape;

            /**
             * Decodes a SessionInfo message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.SessionInfo & palisade.v1.SessionInfo.$Shape} SessionInfo
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.SessionInfo & palisade.v1.SessionInfo.$Shape;

            /**
             * Verifies a SessionInfo message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a SessionInfo message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns SessionInfo
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.SessionInfo;

            /**
             * Creates a plain object from a SessionInfo message. Also converts values to other types if specified.
             * @param message SessionInfo
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.SessionInfo, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this SessionInfo to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for SessionInfo
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace SessionInfo {

            /** Properties of a SessionInfo. */
            interface $Properties {

                /** SessionInfo sessionId */
                sessionId?: (Long|null);

                /** SessionInfo clientName */
                clientName?: (string|null);

                /** SessionInfo ttlMs */
                ttlMs?: (Long|null);

                /** SessionInfo openedIndex */
                openedIndex?: (Long|null);

                /** SessionInfo heldLocks */
                heldLocks?: (string[]|null);

                /** SessionInfo waitingLocks */
                waitingLocks?: (string[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a SessionInfo. */
            type $Shape = palisade.v1.SessionInfo.$Properties;
        }

        /**
         * Properties of a GetSessionRequest.
         * @deprecated Use palisade.v1.GetSessionRequest.$Properties instead.
         */
        interface IGetSessionRequest extends palisade.v1.GetSessionRequest.$Properties {
        }

        /** Represents a GetSessionRequest. */
        class GetSessionRequest {

            /**
             * Constructs a new GetSessionRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.GetSessionRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** GetSessionRequest sessionId. */
            sessionId: Long;

            /**
             * Creates a new GetSessionRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns GetSessionRequest instance
             */
            static create(properties: palisade.v1.GetSessionRequest.$Shape): palisade.v1.GetSessionRequest & palisade.v1.GetSessionRequest.$Shape;
            static create(properties?: palisade.v1.GetSessionRequest.$Properties): palisade.v1.GetSessionRequest;

            /**
             * Encodes the specified GetSessionRequest message. Does not implicitly {@link palisade.v1.GetSessionRequest.verify|verify} messages.
             * @param message GetSessionRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.GetSessionRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified GetSessionRequest message, length delimited. Does not implicitly {@link palisade.v1.GetSessionRequest.verify|verify} messages.
             * @param message GetSessionRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.GetSessionRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a GetSessionRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.GetSessionRequest & palisade.v1.GetSessionRequest.$Shape} GetSessionRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.GetSessionRequest & palisade.v1.GetSessionRequest.$Shape;

            /**
             * Decodes a GetSessionRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.GetSessionRequest & palisade.v1.GetSessionRequest.$Shape} GetSessionRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.GetSessionRequest & palisade.v1.GetSessionRequest.$Shape;

            /**
             * Verifies a GetSessionRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a GetSessionRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns GetSessionRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.GetSessionRequest;

            /**
             * Creates a plain object from a GetSessionRequest message. Also converts values to other types if specified.
             * @param message GetSessionRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.GetSessionRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this GetSessionRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for GetSessionRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetSessionRequest {

            /** Properties of a GetSessionRequest. */
            interface $Properties {

                /** GetSessionRequest sessionId */
                sessionId?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a GetSessionRequest. */
            type $Shape = palisade.v1.GetSessionRequest.$Properties;
        }

        /**
         * Properties of a GetSessionResponse.
         * @deprecated Use palisade.v1.GetSessionResponse.$Properties instead.
         */
        interface IGetSessionResponse extends palisade.v1.GetSessionResponse.$Properties {
        }

        /** Represents a GetSessionResponse. */
        class GetSessionResponse {

            /**
             * Constructs a new GetSessionResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.GetSessionResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** GetSessionResponse session. */
            session?: (palisade.v1.SessionInfo.$Properties|null);

            /**
             * Creates a new GetSessionResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns GetSessionResponse instance
             */
            static create(properties: palisade.v1.GetSessionResponse.$Shape): palisade.v1.GetSessionResponse & palisade.v1.GetSessionResponse.$Shape;
            static create(properties?: palisade.v1.GetSessionResponse.$Properties): palisade.v1.GetSessionResponse;

            /**
             * Encodes the specified GetSessionResponse message. Does not implicitly {@link palisade.v1.GetSessionResponse.verify|verify} messages.
             * @param message GetSessionResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.GetSessionResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified GetSessionResponse message, length delimited. Does not implicitly {@link palisade.v1.GetSessionResponse.verify|verify} messages.
             * @param message GetSessionResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.GetSessionResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a GetSessionResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.GetSessionResponse & palisade.v1.GetSessionResponse.$Shape} GetSessionResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.GetSessionResponse & palisade.v1.GetSessionResponse.$Shape;

            /**
             * Decodes a GetSessionResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.GetSessionResponse & palisade.v1.GetSessionResponse.$Shape} GetSessionResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.GetSessionResponse & palisade.v1.GetSessionResponse.$Shape;

            /**
             * Verifies a GetSessionResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a GetSessionResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns GetSessionResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.GetSessionResponse;

            /**
             * Creates a plain object from a GetSessionResponse message. Also converts values to other types if specified.
             * @param message GetSessionResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.GetSessionResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this GetSessionResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for GetSessionResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetSessionResponse {

            /** Properties of a GetSessionResponse. */
            interface $Properties {

                /** GetSessionResponse session */
                session?: (palisade.v1.SessionInfo.$Properties|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a GetSessionResponse. */
            type $Shape = palisade.v1.GetSessionResponse.$Properties;
        }

        /**
         * Properties of a ListSessionsRequest.
         * @deprecated Use palisade.v1.ListSessionsRequest.$Properties instead.
         */
        interface IListSessionsRequest extends palisade.v1.ListSessionsRequest.$Properties {
        }

        /** Represents a ListSessionsRequest. */
        class ListSessionsRequest {

            /**
             * Constructs a new ListSessionsRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ListSessionsRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ListSessionsRequest afterSessionId. */
            afterSessionId: Long;

            /** ListSessionsRequest limit. */
            limit: number;

            /**
             * Creates a new ListSessionsRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ListSessionsRequest instance
             */
            static create(properties: palisade.v1.ListSessionsRequest.$Shape): palisade.v1.ListSessionsRequest & palisade.v1.ListSessionsRequest.$Shape;
            static create(properties?: palisade.v1.ListSessionsRequest.$Properties): palisade.v1.ListSessionsRequest;

            /**
             * Encodes the specified ListSessionsRequest message. Does not implicitly {@link palisade.v1.ListSessionsRequest.verify|verify} messages.
             * @param message ListSessionsRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ListSessionsRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ListSessionsRequest message, length delimited. Does not implicitly {@link palisade.v1.ListSessionsRequest.verify|verify} messages.
             * @param message ListSessionsRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ListSessionsRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ListSessionsRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ListSessionsRequest & palisade.v1.ListSessionsRequest.$Shape} ListSessionsRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ListSessionsRequest & palisade.v1.ListSessionsRequest.$Shape;

            /**
             * Decodes a ListSessionsRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ListSessionsRequest & palisade.v1.ListSessionsRequest.$Shape} ListSessionsRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ListSessionsRequest & palisade.v1.ListSessionsRequest.$Shape;

            /**
             * Verifies a ListSessionsRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ListSessionsRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ListSessionsRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ListSessionsRequest;

            /**
             * Creates a plain object from a ListSessionsRequest message. Also converts values to other types if specified.
             * @param message ListSessionsRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ListSessionsRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ListSessionsRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ListSessionsRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListSessionsRequest {

            /** Properties of a ListSessionsRequest. */
            interface $Properties {

                /** ListSessionsRequest afterSessionId */
                afterSessionId?: (Long|null);

                /** ListSessionsRequest limit */
                limit?: (number|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ListSessionsRequest. */
            type $Shape = palisade.v1.ListSessionsRequest.$Properties;
        }

        /**
         * Properties of a ListSessionsResponse.
         * @deprecated Use palisade.v1.ListSessionsResponse.$Properties instead.
         */
        interface IListSessionsResponse extends palisade.v1.ListSessionsResponse.$Properties {
        }

        /** Represents a ListSessionsResponse. */
        class ListSessionsResponse {

            /**
             * Constructs a new ListSessionsResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ListSessionsResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ListSessionsResponse sessions. */
            sessions: palisade.v1.SessionInfo.$Properties[];

            /** ListSessionsResponse nextAfterSessionId. */
            nextAfterSessionId: Long;

            /**
             * Creates a new ListSessionsResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ListSessionsResponse instance
             */
            static create(properties: palisade.v1.ListSessionsResponse.$Shape): palisade.v1.ListSessionsResponse & palisade.v1.ListSessionsResponse.$Shape;
            static create(properties?: palisade.v1.ListSessionsResponse.$Properties): palisade.v1.ListSessionsResponse;

            /**
             * Encodes the specified ListSessionsResponse message. Does not implicitly {@link palisade.v1.ListSessionsResponse.verify|verify} messages.
             * @param message ListSessionsResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ListSessionsResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ListSessionsResponse message, length delimited. Does not implicitly {@link palisade.v1.ListSessionsResponse.verify|verify} messages.
             * @param message ListSessionsResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ListSessionsResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ListSessionsResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ListSessionsResponse & palisade.v1.ListSessionsResponse.$Shape} ListSessionsResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ListSessionsResponse & palisade.v1.ListSessionsResponse.$Shape;

            /**
             * Decodes a ListSessionsResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ListSessionsResponse & palisade.v1.ListSessionsResponse.$Shape} ListSessionsResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ListSessionsResponse & palisade.v1.ListSessionsResponse.$Shape;

            /**
             * Verifies a ListSessionsResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ListSessionsResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ListSessionsResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ListSessionsResponse;

            /**
             * Creates a plain object from a ListSessionsResponse message. Also converts values to other types if specified.
             * @param message ListSessionsResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ListSessionsResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ListSessionsResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ListSessionsResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListSessionsResponse {

            /** Properties of a ListSessionsResponse. */
            interface $Properties {

                /** ListSessionsResponse sessions */
                sessions?: (palisade.v1.SessionInfo.$Properties[]|null);

                /** ListSessionsResponse nextAfterSessionId */
                nextAfterSessionId?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ListSessionsResponse. */
            type $Shape = palisade.v1.ListSessionsResponse.$Properties;
        }

        /** EndReason enum. */
        enum EndReason {

            /** END_REASON_UNSPECIFIED value */
            END_REASON_UNSPECIFIED = 0,

            /** END_REASON_RELEASED value */
            END_REASON_RELEASED = 1,

            /** END_REASON_SESSION_CLOSED value */
            END_REASON_SESSION_CLOSED = 2,

            /** END_REASON_SESSION_EXPIRED value */
            END_REASON_SESSION_EXPIRED = 3,

            /** END_REASON_REVOKED value */
            END_REASON_REVOKED = 4,

            /** END_REASON_HANDED_OFF value */
            END_REASON_HANDED_OFF = 5,

            /** END_REASON_UPGRADED value */
            END_REASON_UPGRADED = 6,

            /** END_REASON_DOWNGRADED value */
            END_REASON_DOWNGRADED = 7
        }

        /** RevokeCause enum. */
        enum RevokeCause {

            /** REVOKE_CAUSE_UNSPECIFIED value */
            REVOKE_CAUSE_UNSPECIFIED = 0,

            /** REVOKE_CAUSE_HOLD_LIMIT value */
            REVOKE_CAUSE_HOLD_LIMIT = 1
        }

        /**
         * Properties of a HistoryRecord.
         * @deprecated Use palisade.v1.HistoryRecord.$Properties instead.
         */
        interface IHistoryRecord extends palisade.v1.HistoryRecord.$Properties {
        }

        /** Represents a HistoryRecord. */
        class HistoryRecord {

            /**
             * Constructs a new HistoryRecord.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.HistoryRecord.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** HistoryRecord token. */
            token: Long;

            /** HistoryRecord sessionId. */
            sessionId: Long;

            /** HistoryRecord clientName. */
            clientName: string;

            /** HistoryRecord grantedIndex. */
            grantedIndex: Long;

            /** HistoryRecord waitedFromIndex. */
            waitedFromIndex: Long;

            /** HistoryRecord endedIndex. */
            endedIndex: Long;

            /** HistoryRecord reason. */
            reason: palisade.v1.EndReason;

            /** HistoryRecord grantedAtMs. */
            grantedAtMs: Long;

            /** HistoryRecord endedAtMs. */
            endedAtMs: Long;

            /** HistoryRecord mode. */
            mode: palisade.v1.LockMode;

            /** HistoryRecord permit. */
            permit: boolean;

            /** HistoryRecord slot. */
            slot: number;

            /** HistoryRecord holderData. */
            holderData: Uint8Array;

            /** HistoryRecord holdMs. */
            holdMs: Long;

            /** HistoryRecord revokeCause. */
            revokeCause: palisade.v1.RevokeCause;

            /**
             * Creates a new HistoryRecord instance using the specified properties.
             * @param [properties] Properties to set
             * @returns HistoryRecord instance
             */
            static create(properties: palisade.v1.HistoryRecord.$Shape): palisade.v1.HistoryRecord & palisade.v1.HistoryRecord.$Shape;
            static create(properties?: palisade.v1.HistoryRecord.$Properties): palisade.v1.HistoryRecord;

            /**
             * Encodes the specified HistoryRecord message. Does not implicitly {@link palisade.v1.HistoryRecord.verify|verify} messages.
             * @param message HistoryRecord message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.HistoryRecord.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified HistoryRecord message, length delimited. Does not implicitly {@link palisade.v1.HistoryRecord.verify|verify} messages.
             * @param message HistoryRecord message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.HistoryRecord.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a HistoryRecord message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.HistoryRecord & palisade.v1.HistoryRecord.$Shape} HistoryRecord
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.HistoryRecord & palisade.v1.HistoryRecord.$Shape;

            /**
             * Decodes a HistoryRecord message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.HistoryRecord & palisade.v1.HistoryRecord.$Shape} HistoryRecord
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.HistoryRecord & palisade.v1.HistoryRecord.$Shape;

            /**
             * Verifies a HistoryRecord message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a HistoryRecord message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns HistoryRecord
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.HistoryRecord;

            /**
             * Creates a plain object from a HistoryRecord message. Also converts values to other types if specified.
             * @param message HistoryRecord
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.HistoryRecord, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this HistoryRecord to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for HistoryRecord
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace HistoryRecord {

            /** Properties of a HistoryRecord. */
            interface $Properties {

                /** HistoryRecord token */
                token?: (Long|null);

                /** HistoryRecord sessionId */
                sessionId?: (Long|null);

                /** HistoryRecord clientName */
                clientName?: (string|null);

                /** HistoryRecord grantedIndex */
                grantedIndex?: (Long|null);

                /** HistoryRecord waitedFromIndex */
                waitedFromIndex?: (Long|null);

                /** HistoryRecord endedIndex */
                endedIndex?: (Long|null);

                /** HistoryRecord reason */
                reason?: (palisade.v1.EndReason|null);

                /** HistoryRecord grantedAtMs */
                grantedAtMs?: (Long|null);

                /** HistoryRecord endedAtMs */
                endedAtMs?: (Long|null);

                /** HistoryRecord mode */
                mode?: (palisade.v1.LockMode|null);

                /** HistoryRecord permit */
                permit?: (boolean|null);

                /** HistoryRecord slot */
                slot?: (number|null);

                /** HistoryRecord holderData */
                holderData?: (Uint8Array|null);

                /** HistoryRecord holdMs */
                holdMs?: (Long|null);

                /** HistoryRecord revokeCause */
                revokeCause?: (palisade.v1.RevokeCause|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a HistoryRecord. */
            type $Shape = palisade.v1.HistoryRecord.$Properties;
        }

        /**
         * Properties of a GetLockHistoryRequest.
         * @deprecated Use palisade.v1.GetLockHistoryRequest.$Properties instead.
         */
        interface IGetLockHistoryRequest extends palisade.v1.GetLockHistoryRequest.$Properties {
        }

        /** Represents a GetLockHistoryRequest. */
        class GetLockHistoryRequest {

            /**
             * Constructs a new GetLockHistoryRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.GetLockHistoryRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** GetLockHistoryRequest lock. */
            lock: string;

            /** GetLockHistoryRequest limit. */
            limit: number;

            /**
             * Creates a new GetLockHistoryRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns GetLockHistoryRequest instance
             */
            static create(properties: palisade.v1.GetLockHistoryRequest.$Shape): palisade.v1.GetLockHistoryRequest & palisade.v1.GetLockHistoryRequest.$Shape;
            static create(properties?: palisade.v1.GetLockHistoryRequest.$Properties): palisade.v1.GetLockHistoryRequest;

            /**
             * Encodes the specified GetLockHistoryRequest message. Does not implicitly {@link palisade.v1.GetLockHistoryRequest.verify|verify} messages.
             * @param message GetLockHistoryRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.GetLockHistoryRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified GetLockHistoryRequest message, length delimited. Does not implicitly {@link palisade.v1.GetLockHistoryRequest.verify|verify} messages.
             * @param message GetLockHistoryRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.GetLockHistoryRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a GetLockHistoryRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.GetLockHistoryRequest & palisade.v1.GetLockHistoryRequest.$Shape} GetLockHistoryRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.GetLockHistoryRequest & palisade.v1.GetLockHistoryRequest.$Shape;

            /**
             * Decodes a GetLockHistoryRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.GetLockHistoryRequest & palisade.v1.GetLockHistoryRequest.$Shape} GetLockHistoryRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.GetLockHistoryRequest & palisade.v1.GetLockHistoryRequest.$Shape;

            /**
             * Verifies a GetLockHistoryRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a GetLockHistoryRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns GetLockHistoryRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.GetLockHistoryRequest;

            /**
             * Creates a plain object from a GetLockHistoryRequest message. Also converts values to other types if specified.
             * @param message GetLockHistoryRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.GetLockHistoryRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this GetLockHistoryRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for GetLockHistoryRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetLockHistoryRequest {

            /** Properties of a GetLockHistoryRequest. */
            interface $Properties {

                /** GetLockHistoryRequest lock */
                lock?: (string|null);

                /** GetLockHistoryRequest limit */
                limit?: (number|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a GetLockHistoryRequest. */
            type $Shape = palisade.v1.GetLockHistoryRequest.$Properties;
        }

        /**
         * Properties of a GetLockHistoryResponse.
         * @deprecated Use palisade.v1.GetLockHistoryResponse.$Properties instead.
         */
        interface IGetLockHistoryResponse extends palisade.v1.GetLockHistoryResponse.$Properties {
        }

        /** Represents a GetLockHistoryResponse. */
        class GetLockHistoryResponse {

            /**
             * Constructs a new GetLockHistoryResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.GetLockHistoryResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** GetLockHistoryResponse records. */
            records: palisade.v1.HistoryRecord.$Properties[];

            /**
             * Creates a new GetLockHistoryResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns GetLockHistoryResponse instance
             */
            static create(properties: palisade.v1.GetLockHistoryResponse.$Shape): palisade.v1.GetLockHistoryResponse & palisade.v1.GetLockHistoryResponse.$Shape;
            static create(properties?: palisade.v1.GetLockHistoryResponse.$Properties): palisade.v1.GetLockHistoryResponse;

            /**
             * Encodes the specified GetLockHistoryResponse message. Does not implicitly {@link palisade.v1.GetLockHistoryResponse.verify|verify} messages.
             * @param message GetLockHistoryResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.GetLockHistoryResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified GetLockHistoryResponse message, length delimited. Does not implicitly {@link palisade.v1.GetLockHistoryResponse.verify|verify} messages.
             * @param message GetLockHistoryResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.GetLockHistoryResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a GetLockHistoryResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.GetLockHistoryResponse & palisade.v1.GetLockHistoryResponse.$Shape} GetLockHistoryResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.GetLockHistoryResponse & palisade.v1.GetLockHistoryResponse.$Shape;

            /**
             * Decodes a GetLockHistoryResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.GetLockHistoryResponse & palisade.v1.GetLockHistoryResponse.$Shape} GetLockHistoryResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.GetLockHistoryResponse & palisade.v1.GetLockHistoryResponse.$Shape;

            /**
             * Verifies a GetLockHistoryResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a GetLockHistoryResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns GetLockHistoryResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.GetLockHistoryResponse;

            /**
             * Creates a plain object from a GetLockHistoryResponse message. Also converts values to other types if specified.
             * @param message GetLockHistoryResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.GetLockHistoryResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this GetLockHistoryResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for GetLockHistoryResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetLockHistoryResponse {

            /** Properties of a GetLockHistoryResponse. */
            interface $Properties {

                /** GetLockHistoryResponse records */
                records?: (palisade.v1.HistoryRecord.$Properties[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a GetLockHistoryResponse. */
            type $Shape = palisade.v1.GetLockHistoryResponse.$Properties;
        }

        /**
         * Properties of a ValidateTokenRequest.
         * @deprecated Use palisade.v1.ValidateTokenRequest.$Properties instead.
         */
        interface IValidateTokenRequest extends palisade.v1.ValidateTokenRequest.$Properties {
        }

        /** Represents a ValidateTokenRequest. */
        class ValidateTokenRequest {

            /**
             * Constructs a new ValidateTokenRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ValidateTokenRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ValidateTokenRequest lock. */
            lock: string;

            /** ValidateTokenRequest token. */
            token: Long;

            /**
             * Creates a new ValidateTokenRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ValidateTokenRequest instance
             */
            static create(properties: palisade.v1.ValidateTokenRequest.$Shape): palisade.v1.ValidateTokenRequest & palisade.v1.ValidateTokenRequest.$Shape;
            static create(properties?: palisade.v1.ValidateTokenRequest.$Properties): palisade.v1.ValidateTokenRequest;

            /**
             * Encodes the specified ValidateTokenRequest message. Does not implicitly {@link palisade.v1.ValidateTokenRequest.verify|verify} messages.
             * @param message ValidateTokenRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ValidateTokenRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ValidateTokenRequest message, length delimited. Does not implicitly {@link palisade.v1.ValidateTokenRequest.verify|verify} messages.
             * @param message ValidateTokenRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ValidateTokenRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ValidateTokenRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ValidateTokenRequest & palisade.v1.ValidateTokenRequest.$Shape} ValidateTokenRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ValidateTokenRequest & palisade.v1.ValidateTokenRequest.$Shape;

            /**
             * Decodes a ValidateTokenRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ValidateTokenRequest & palisade.v1.ValidateTokenRequest.$Shape} ValidateTokenRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ValidateTokenRequest & palisade.v1.ValidateTokenRequest.$Shape;

            /**
             * Verifies a ValidateTokenRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ValidateTokenRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ValidateTokenRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ValidateTokenRequest;

            /**
             * Creates a plain object from a ValidateTokenRequest message. Also converts values to other types if specified.
             * @param message ValidateTokenRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ValidateTokenRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ValidateTokenRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ValidateTokenRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ValidateTokenRequest {

            /** Properties of a ValidateTokenRequest. */
            interface $Properties {

                /** ValidateTokenRequest lock */
                lock?: (string|null);

                /** ValidateTokenRequest token */
                token?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ValidateTokenRequest. */
            type $Shape = palisade.v1.ValidateTokenRequest.$Properties;
        }

        /**
         * Properties of a ValidateTokenResponse.
         * @deprecated Use palisade.v1.ValidateTokenResponse.$Properties instead.
         */
        interface IValidateTokenResponse extends palisade.v1.ValidateTokenResponse.$Properties {
        }

        /** Represents a ValidateTokenResponse. */
        class ValidateTokenResponse {

            /**
             * Constructs a new ValidateTokenResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ValidateTokenResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ValidateTokenResponse valid. */
            valid: boolean;

            /**
             * Creates a new ValidateTokenResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ValidateTokenResponse instance
             */
            static create(properties: palisade.v1.ValidateTokenResponse.$Shape): palisade.v1.ValidateTokenResponse & palisade.v1.ValidateTokenResponse.$Shape;
            static create(properties?: palisade.v1.ValidateTokenResponse.$Properties): palisade.v1.ValidateTokenResponse;

            /**
             * Encodes the specified ValidateTokenResponse message. Does not implicitly {@link palisade.v1.ValidateTokenResponse.verify|verify} messages.
             * @param message ValidateTokenResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ValidateTokenResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ValidateTokenResponse message, length delimited. Does not implicitly {@link palisade.v1.ValidateTokenResponse.verify|verify} messages.
             * @param message ValidateTokenResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ValidateTokenResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ValidateTokenResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ValidateTokenResponse & palisade.v1.ValidateTokenResponse.$Shape} ValidateTokenResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ValidateTokenResponse & palisade.v1.ValidateTokenResponse.$Shape;

            /**
             * Decodes a ValidateTokenResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ValidateTokenResponse & palisade.v1.ValidateTokenResponse.$Shape} ValidateTokenResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ValidateTokenResponse & palisade.v1.ValidateTokenResponse.$Shape;

            /**
             * Verifies a ValidateTokenResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ValidateTokenResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ValidateTokenResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ValidateTokenResponse;

            /**
             * Creates a plain object from a ValidateTokenResponse message. Also converts values to other types if specified.
             * @param message ValidateTokenResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ValidateTokenResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ValidateTokenResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ValidateTokenResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ValidateTokenResponse {

            /** Properties of a ValidateTokenResponse. */
            interface $Properties {

                /** ValidateTokenResponse valid */
                valid?: (boolean|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ValidateTokenResponse. */
            type $Shape = palisade.v1.ValidateTokenResponse.$Properties;
        }

        /**
         * Properties of a WatchRequest.
         * @deprecated Use palisade.v1.WatchRequest.$Properties instead.
         */
        interface IWatchRequest extends palisade.v1.WatchRequest.$Properties {
        }

        /** Represents a WatchRequest. */
        class WatchRequest {

            /**
             * Constructs a new WatchRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.WatchRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** WatchRequest prefix. */
            prefix: string;

            /** WatchRequest fromIndex. */
            fromIndex: Long;

            /**
             * Creates a new WatchRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns WatchRequest instance
             */
            static create(properties: palisade.v1.WatchRequest.$Shape): palisade.v1.WatchRequest & palisade.v1.WatchRequest.$Shape;
            static create(properties?: palisade.v1.WatchRequest.$Properties): palisade.v1.WatchRequest;

            /**
             * Encodes the specified WatchRequest message. Does not implicitly {@link palisade.v1.WatchRequest.verify|verify} messages.
             * @param message WatchRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.WatchRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified WatchRequest message, length delimited. Does not implicitly {@link palisade.v1.WatchRequest.verify|verify} messages.
             * @param message WatchRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.WatchRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a WatchRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.WatchRequest & palisade.v1.WatchRequest.$Shape} WatchRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.WatchRequest & palisade.v1.WatchRequest.$Shape;

            /**
             * Decodes a WatchRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.WatchRequest & palisade.v1.WatchRequest.$Shape} WatchRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.WatchRequest & palisade.v1.WatchRequest.$Shape;

            /**
             * Verifies a WatchRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a WatchRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns WatchRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.WatchRequest;

            /**
             * Creates a plain object from a WatchRequest message. Also converts values to other types if specified.
             * @param message WatchRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.WatchRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this WatchRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for WatchRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace WatchRequest {

            /** Properties of a WatchRequest. */
            interface $Properties {

                /** WatchRequest prefix */
                prefix?: (string|null);

                /** WatchRequest fromIndex */
                fromIndex?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a WatchRequest. */
            type $Shape = palisade.v1.WatchRequest.$Properties;
        }

        /** WatchEventKind enum. */
        enum WatchEventKind {

            /** WATCH_EVENT_KIND_UNSPECIFIED value */
            WATCH_EVENT_KIND_UNSPECIFIED = 0,

            /** WATCH_EVENT_KIND_ACQUIRED value */
            WATCH_EVENT_KIND_ACQUIRED = 1,

            /** WATCH_EVENT_KIND_RELEASED value */
            WATCH_EVENT_KIND_RELEASED = 2,

            /** WATCH_EVENT_KIND_SESSION_CLOSED value */
            WATCH_EVENT_KIND_SESSION_CLOSED = 3,

            /** WATCH_EVENT_KIND_SESSION_EXPIRED value */
            WATCH_EVENT_KIND_SESSION_EXPIRED = 4,

            /** WATCH_EVENT_KIND_REVOKED value */
            WATCH_EVENT_KIND_REVOKED = 5,

            /** WATCH_EVENT_KIND_PROCLAIMED value */
            WATCH_EVENT_KIND_PROCLAIMED = 6
        }

        /**
         * Properties of a WatchEvent.
         * @deprecated Use palisade.v1.WatchEvent.$Properties instead.
         */
        interface IWatchEvent extends palisade.v1.WatchEvent.$Properties {
        }

        /** Represents a WatchEvent. */
        class WatchEvent {

            /**
             * Constructs a new WatchEvent.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.WatchEvent.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** WatchEvent index. */
            index: Long;

            /** WatchEvent lock. */
            lock: string;

            /** WatchEvent kind. */
            kind: palisade.v1.WatchEventKind;

            /** WatchEvent sessionId. */
            sessionId: Long;

            /** WatchEvent token. */
            token: Long;

            /** WatchEvent mode. */
            mode: palisade.v1.LockMode;

            /** WatchEvent permits. */
            permits: number;

            /** WatchEvent slot. */
            slot: number;

            /** WatchEvent holderData. */
            holderData: Uint8Array;

            /** WatchEvent holdMs. */
            holdMs: Long;

            /** WatchEvent revokeCause. */
            revokeCause: palisade.v1.RevokeCause;

            /** WatchEvent ended. */
            ended: palisade.v1.EndReason;

            /**
             * Creates a new WatchEvent instance using the specified properties.
             * @param [properties] Properties to set
             * @returns WatchEvent instance
             */
            static create(properties: palisade.v1.WatchEvent.$Shape): palisade.v1.WatchEvent & palisade.v1.WatchEvent.$Shape;
            static create(properties?: palisade.v1.WatchEvent.$Properties): palisade.v1.WatchEvent;

            /**
             * Encodes the specified WatchEvent message. Does not implicitly {@link palisade.v1.WatchEvent.verify|verify} messages.
             * @param message WatchEvent message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.WatchEvent.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified WatchEvent message, length delimited. Does not implicitly {@link palisade.v1.WatchEvent.verify|verify} messages.
             * @param message WatchEvent message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.WatchEvent.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a WatchEvent message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.WatchEvent & palisade.v1.WatchEvent.$Shape} WatchEvent
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.WatchEvent & palisade.v1.WatchEvent.$Shape;

            /**
             * Decodes a WatchEvent message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.WatchEvent & palisade.v1.WatchEvent.$Shape} WatchEvent
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.WatchEvent & palisade.v1.WatchEvent.$Shape;

            /**
             * Verifies a WatchEvent message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a WatchEvent message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns WatchEvent
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.WatchEvent;

            /**
             * Creates a plain object from a WatchEvent message. Also converts values to other types if specified.
             * @param message WatchEvent
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.WatchEvent, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this WatchEvent to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for WatchEvent
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace WatchEvent {

            /** Properties of a WatchEvent. */
            interface $Properties {

                /** WatchEvent index */
                index?: (Long|null);

                /** WatchEvent lock */
                lock?: (string|null);

                /** WatchEvent kind */
                kind?: (palisade.v1.WatchEventKind|null);

                /** WatchEvent sessionId */
                sessionId?: (Long|null);

                /** WatchEvent token */
                token?: (Long|null);

                /** WatchEvent mode */
                mode?: (palisade.v1.LockMode|null);

                /** WatchEvent permits */
                permits?: (number|null);

                /** WatchEvent slot */
                slot?: (number|null);

                /** WatchEvent holderData */
                holderData?: (Uint8Array|null);

                /** WatchEvent holdMs */
                holdMs?: (Long|null);

                /** WatchEvent revokeCause */
                revokeCause?: (palisade.v1.RevokeCause|null);

                /** WatchEvent ended */
                ended?: (palisade.v1.EndReason|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a WatchEvent. */
            type $Shape = palisade.v1.WatchEvent.$Properties;
        }

        /**
         * Properties of a CampaignRequest.
         * @deprecated Use palisade.v1.CampaignRequest.$Properties instead.
         */
        interface ICampaignRequest extends palisade.v1.CampaignRequest.$Properties {
        }

        /** Represents a CampaignRequest. */
        class CampaignRequest {

            /**
             * Constructs a new CampaignRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.CampaignRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** CampaignRequest sessionId. */
            sessionId: Long;

            /** CampaignRequest election. */
            election: string;

            /** CampaignRequest value. */
            value: Uint8Array;

            /** CampaignRequest waitMs. */
            waitMs: Long;

            /** CampaignRequest seq. */
            seq: Long;

            /** CampaignRequest ackedUpTo. */
            ackedUpTo: Long;

            /** CampaignRequest held. */
            held: Long[];

            /**
             * Creates a new CampaignRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns CampaignRequest instance
             */
            static create(properties: palisade.v1.CampaignRequest.$Shape): palisade.v1.CampaignRequest & palisade.v1.CampaignRequest.$Shape;
            static create(properties?: palisade.v1.CampaignRequest.$Properties): palisade.v1.CampaignRequest;

            /**
             * Encodes the specified CampaignRequest message. Does not implicitly {@link palisade.v1.CampaignRequest.verify|verify} messages.
             * @param message CampaignRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.CampaignRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified CampaignRequest message, length delimited. Does not implicitly {@link palisade.v1.CampaignRequest.verify|verify} messages.
             * @param message CampaignRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.CampaignRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CampaignRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.CampaignRequest & palisade.v1.CampaignRequest.$Shape} CampaignRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.CampaignRequest & palisade.v1.CampaignRequest.$Shape;

            /**
             * Decodes a CampaignRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.CampaignRequest & palisade.v1.CampaignRequest.$Shape} CampaignRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.CampaignRequest & palisade.v1.CampaignRequest.$Shape;

            /**
             * Verifies a CampaignRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a CampaignRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns CampaignRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.CampaignRequest;

            /**
             * Creates a plain object from a CampaignRequest message. Also converts values to other types if specified.
             * @param message CampaignRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.CampaignRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this CampaignRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for CampaignRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace CampaignRequest {

            /** Properties of a CampaignRequest. */
            interface $Properties {

                /** CampaignRequest sessionId */
                sessionId?: (Long|null);

                /** CampaignRequest election */
                election?: (string|null);

                /** CampaignRequest value */
                value?: (Uint8Array|null);

                /** CampaignRequest waitMs */
                waitMs?: (Long|null);

                /** CampaignRequest seq */
                seq?: (Long|null);

                /** CampaignRequest ackedUpTo */
                ackedUpTo?: (Long|null);

                /** CampaignRequest held */
                held?: (Long[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a CampaignRequest. */
            type $Shape = palisade.v1.CampaignRequest.$Properties;
        }

        /**
         * Properties of a Leadership.
         * @deprecated Use palisade.v1.Leadership.$Properties instead.
         */
        interface ILeadership extends palisade.v1.Leadership.$Properties {
        }

        /** Represents a Leadership. */
        class Leadership {

            /**
             * Constructs a new Leadership.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.Leadership.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Leadership sessionId. */
            sessionId: Long;

            /** Leadership clientName. */
            clientName: string;

            /** Leadership token. */
            token: Long;

            /** Leadership sinceIndex. */
            sinceIndex: Long;

            /** Leadership value. */
            value: Uint8Array;

            /**
             * Creates a new Leadership instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Leadership instance
             */
            static create(properties: palisade.v1.Leadership.$Shape): palisade.v1.Leadership & palisade.v1.Leadership.$Shape;
            static create(properties?: palisade.v1.Leadership.$Properties): palisade.v1.Leadership;

            /**
             * Encodes the specified Leadership message. Does not implicitly {@link palisade.v1.Leadership.verify|verify} messages.
             * @param message Leadership message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.Leadership.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Leadership message, length delimited. Does not implicitly {@link palisade.v1.Leadership.verify|verify} messages.
             * @param message Leadership message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.Leadership.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Leadership message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.Leadership & palisade.v1.Leadership.$Shape} Leadership
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.Leadership & palisade.v1.Leadership.$Shape;

            /**
             * Decodes a Leadership message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.Leadership & palisade.v1.Leadership.$Shape} Leadership
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.Leadership & palisade.v1.Leadership.$Shape;

            /**
             * Verifies a Leadership message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Leadership message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Leadership
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.Leadership;

            /**
             * Creates a plain object from a Leadership message. Also converts values to other types if specified.
             * @param message Leadership
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.Leadership, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Leadership to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Leadership
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Leadership {

            /** Properties of a Leadership. */
            interface $Properties {

                /** Leadership sessionId */
                sessionId?: (Long|null);

                /** Leadership clientName */
                clientName?: (string|null);

                /** Leadership token */
                token?: (Long|null);

                /** Leadership sinceIndex */
                sinceIndex?: (Long|null);

                /** Leadership value */
                value?: (Uint8Array|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Leadership. */
            type $Shape = palisade.v1.Leadership.$Properties;
        }

        /**
         * Properties of a CampaignResponse.
         * @deprecated Use palisade.v1.CampaignResponse.$Properties instead.
         */
        interface ICampaignResponse extends palisade.v1.CampaignResponse.$Properties {
        }

        /** Represents a CampaignResponse. */
        class CampaignResponse {

            /**
             * Constructs a new CampaignResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.CampaignResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** CampaignResponse elected. */
            elected: boolean;

            /** CampaignResponse token. */
            token: Long;

            /** CampaignResponse leader. */
            leader?: (palisade.v1.Leadership.$Properties|null);

            /** CampaignResponse cancelled. */
            cancelled: boolean;

            /**
             * Creates a new CampaignResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns CampaignResponse instance
             */
            static create(properties: palisade.v1.CampaignResponse.$Shape): palisade.v1.CampaignResponse & palisade.v1.CampaignResponse.$Shape;
            static create(properties?: palisade.v1.CampaignResponse.$Properties): palisade.v1.CampaignResponse;

            /**
             * Encodes the specified CampaignResponse message. Does not implicitly {@link palisade.v1.CampaignResponse.verify|verify} messages.
             * @param message CampaignResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.CampaignResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified CampaignResponse message, length delimited. Does not implicitly {@link palisade.v1.CampaignResponse.verify|verify} messages.
             * @param message CampaignResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.CampaignResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CampaignResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.CampaignResponse & palisade.v1.CampaignResponse.$Shape} CampaignResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.CampaignResponse & palisade.v1.CampaignResponse.$Shape;

            /**
             * Decodes a CampaignResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.CampaignResponse & palisade.v1.CampaignResponse.$Shape} CampaignResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.CampaignResponse & palisade.v1.CampaignResponse.$Shape;

            /**
             * Verifies a CampaignResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a CampaignResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns CampaignResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.CampaignResponse;

            /**
             * Creates a plain object from a CampaignResponse message. Also converts values to other types if specified.
             * @param message CampaignResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.CampaignResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this CampaignResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for CampaignResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace CampaignResponse {

            /** Properties of a CampaignResponse. */
            interface $Properties {

                /** CampaignResponse elected */
                elected?: (boolean|null);

                /** CampaignResponse token */
                token?: (Long|null);

                /** CampaignResponse leader */
                leader?: (palisade.v1.Leadership.$Properties|null);

                /** CampaignResponse cancelled */
                cancelled?: (boolean|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a CampaignResponse. */
            type $Shape = palisade.v1.CampaignResponse.$Properties;
        }

        /**
         * Properties of a ProclaimRequest.
         * @deprecated Use palisade.v1.ProclaimRequest.$Properties instead.
         */
        interface IProclaimRequest extends palisade.v1.ProclaimRequest.$Properties {
        }

        /** Represents a ProclaimRequest. */
        class ProclaimRequest {

            /**
             * Constructs a new ProclaimRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ProclaimRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ProclaimRequest sessionId. */
            sessionId: Long;

            /** ProclaimRequest election. */
            election: string;

            /** ProclaimRequest token. */
            token: Long;

            /** ProclaimRequest value. */
            value: Uint8Array;

            /** ProclaimRequest seq. */
            seq: Long;

            /** ProclaimRequest ackedUpTo. */
            ackedUpTo: Long;

            /** ProclaimRequest held. */
            held: Long[];

            /**
             * Creates a new ProclaimRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ProclaimRequest instance
             */
            static create(properties: palisade.v1.ProclaimRequest.$Shape): palisade.v1.ProclaimRequest & palisade.v1.ProclaimRequest.$Shape;
            static create(properties?: palisade.v1.ProclaimRequest.$Properties): palisade.v1.ProclaimRequest;

            /**
             * Encodes the specified ProclaimRequest message. Does not implicitly {@link palisade.v1.ProclaimRequest.verify|verify} messages.
             * @param message ProclaimRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ProclaimRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ProclaimRequest message, length delimited. Does not implicitly {@link palisade.v1.ProclaimRequest.verify|verify} messages.
             * @param message ProclaimRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ProclaimRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ProclaimRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ProclaimRequest & palisade.v1.ProclaimRequest.$Shape} ProclaimRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ProclaimRequest & palisade.v1.ProclaimRequest.$Shape;

            /**
             * Decodes a ProclaimRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ProclaimRequest & palisade.v1.ProclaimRequest.$Shape} ProclaimRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ProclaimRequest & palisade.v1.ProclaimRequest.$Shape;

            /**
             * Verifies a ProclaimRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ProclaimRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ProclaimRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ProclaimRequest;

            /**
             * Creates a plain object from a ProclaimRequest message. Also converts values to other types if specified.
             * @param message ProclaimRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ProclaimRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ProclaimRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ProclaimRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ProclaimRequest {

            /** Properties of a ProclaimRequest. */
            interface $Properties {

                /** ProclaimRequest sessionId */
                sessionId?: (Long|null);

                /** ProclaimRequest election */
                election?: (string|null);

                /** ProclaimRequest token */
                token?: (Long|null);

                /** ProclaimRequest value */
                value?: (Uint8Array|null);

                /** ProclaimRequest seq */
                seq?: (Long|null);

                /** ProclaimRequest ackedUpTo */
                ackedUpTo?: (Long|null);

                /** ProclaimRequest held */
                held?: (Long[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ProclaimRequest. */
            type $Shape = palisade.v1.ProclaimRequest.$Properties;
        }

        /**
         * Properties of a ProclaimResponse.
         * @deprecated Use palisade.v1.ProclaimResponse.$Properties instead.
         */
        interface IProclaimResponse extends palisade.v1.ProclaimResponse.$Properties {
        }

        /** Represents a ProclaimResponse. */
        class ProclaimResponse {

            /**
             * Constructs a new ProclaimResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ProclaimResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new ProclaimResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ProclaimResponse instance
             */
            static create(properties: palisade.v1.ProclaimResponse.$Shape): palisade.v1.ProclaimResponse & palisade.v1.ProclaimResponse.$Shape;
            static create(properties?: palisade.v1.ProclaimResponse.$Properties): palisade.v1.ProclaimResponse;

            /**
             * Encodes the specified ProclaimResponse message. Does not implicitly {@link palisade.v1.ProclaimResponse.verify|verify} messages.
             * @param message ProclaimResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ProclaimResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ProclaimResponse message, length delimited. Does not implicitly {@link palisade.v1.ProclaimResponse.verify|verify} messages.
             * @param message ProclaimResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ProclaimResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ProclaimResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ProclaimResponse & palisade.v1.ProclaimResponse.$Shape} ProclaimResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ProclaimResponse & palisade.v1.ProclaimResponse.$Shape;

            /**
             * Decodes a ProclaimResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ProclaimResponse & palisade.v1.ProclaimResponse.$Shape} ProclaimResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ProclaimResponse & palisade.v1.ProclaimResponse.$Shape;

            /**
             * Verifies a ProclaimResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ProclaimResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ProclaimResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ProclaimResponse;

            /**
             * Creates a plain object from a ProclaimResponse message. Also converts values to other types if specified.
             * @param message ProclaimResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ProclaimResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ProclaimResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ProclaimResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ProclaimResponse {

            /** Properties of a ProclaimResponse. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ProclaimResponse. */
            type $Shape = palisade.v1.ProclaimResponse.$Properties;
        }

        /**
         * Properties of a ResignRequest.
         * @deprecated Use palisade.v1.ResignRequest.$Properties instead.
         */
        interface IResignRequest extends palisade.v1.ResignRequest.$Properties {
        }

        /** Represents a ResignRequest. */
        class ResignRequest {

            /**
             * Constructs a new ResignRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ResignRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ResignRequest sessionId. */
            sessionId: Long;

            /** ResignRequest election. */
            election: string;

            /** ResignRequest token. */
            token: Long;

            /** ResignRequest seq. */
            seq: Long;

            /** ResignRequest ackedUpTo. */
            ackedUpTo: Long;

            /** ResignRequest held. */
            held: Long[];

            /** ResignRequest successorSessionId. */
            successorSessionId: Long;

            /**
             * Creates a new ResignRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ResignRequest instance
             */
            static create(properties: palisade.v1.ResignRequest.$Shape): palisade.v1.ResignRequest & palisade.v1.ResignRequest.$Shape;
            static create(properties?: palisade.v1.ResignRequest.$Properties): palisade.v1.ResignRequest;

            /**
             * Encodes the specified ResignRequest message. Does not implicitly {@link palisade.v1.ResignRequest.verify|verify} messages.
             * @param message ResignRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ResignRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ResignRequest message, length delimited. Does not implicitly {@link palisade.v1.ResignRequest.verify|verify} messages.
             * @param message ResignRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ResignRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ResignRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ResignRequest & palisade.v1.ResignRequest.$Shape} ResignRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ResignRequest & palisade.v1.ResignRequest.$Shape;

            /**
             * Decodes a ResignRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ResignRequest & palisade.v1.ResignRequest.$Shape} ResignRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ResignRequest & palisade.v1.ResignRequest.$Shape;

            /**
             * Verifies a ResignRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ResignRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ResignRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ResignRequest;

            /**
             * Creates a plain object from a ResignRequest message. Also converts values to other types if specified.
             * @param message ResignRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ResignRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ResignRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ResignRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ResignRequest {

            /** Properties of a ResignRequest. */
            interface $Properties {

                /** ResignRequest sessionId */
                sessionId?: (Long|null);

                /** ResignRequest election */
                election?: (string|null);

                /** ResignRequest token */
                token?: (Long|null);

                /** ResignRequest seq */
                seq?: (Long|null);

                /** ResignRequest ackedUpTo */
                ackedUpTo?: (Long|null);

                /** ResignRequest held */
                held?: (Long[]|null);

                /** ResignRequest successorSessionId */
                successorSessionId?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ResignRequest. */
            type $Shape = palisade.v1.ResignRequest.$Properties;
        }

        /**
         * Properties of a ResignResponse.
         * @deprecated Use palisade.v1.ResignResponse.$Properties instead.
         */
        interface IResignResponse extends palisade.v1.ResignResponse.$Properties {
        }

        /** Represents a ResignResponse. */
        class ResignResponse {

            /**
             * Constructs a new ResignResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ResignResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new ResignResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ResignResponse instance
             */
            static create(properties: palisade.v1.ResignResponse.$Shape): palisade.v1.ResignResponse & palisade.v1.ResignResponse.$Shape;
            static create(properties?: palisade.v1.ResignResponse.$Properties): palisade.v1.ResignResponse;

            /**
             * Encodes the specified ResignResponse message. Does not implicitly {@link palisade.v1.ResignResponse.verify|verify} messages.
             * @param message ResignResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ResignResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ResignResponse message, length delimited. Does not implicitly {@link palisade.v1.ResignResponse.verify|verify} messages.
             * @param message ResignResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ResignResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ResignResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ResignResponse & palisade.v1.ResignResponse.$Shape} ResignResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ResignResponse & palisade.v1.ResignResponse.$Shape;

            /**
             * Decodes a ResignResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ResignResponse & palisade.v1.ResignResponse.$Shape} ResignResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ResignResponse & palisade.v1.ResignResponse.$Shape;

            /**
             * Verifies a ResignResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ResignResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ResignResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ResignResponse;

            /**
             * Creates a plain object from a ResignResponse message. Also converts values to other types if specified.
             * @param message ResignResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ResignResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ResignResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ResignResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ResignResponse {

            /** Properties of a ResignResponse. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ResignResponse. */
            type $Shape = palisade.v1.ResignResponse.$Properties;
        }

        /**
         * Properties of a LeaderRequest.
         * @deprecated Use palisade.v1.LeaderRequest.$Properties instead.
         */
        interface ILeaderRequest extends palisade.v1.LeaderRequest.$Properties {
        }

        /** Represents a LeaderRequest. */
        class LeaderRequest {

            /**
             * Constructs a new LeaderRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.LeaderRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** LeaderRequest election. */
            election: string;

            /**
             * Creates a new LeaderRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns LeaderRequest instance
             */
            static create(properties: palisade.v1.LeaderRequest.$Shape): palisade.v1.LeaderRequest & palisade.v1.LeaderRequest.$Shape;
            static create(properties?: palisade.v1.LeaderRequest.$Properties): palisade.v1.LeaderRequest;

            /**
             * Encodes the specified LeaderRequest message. Does not implicitly {@link palisade.v1.LeaderRequest.verify|verify} messages.
             * @param message LeaderRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.LeaderRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified LeaderRequest message, length delimited. Does not implicitly {@link palisade.v1.LeaderRequest.verify|verify} messages.
             * @param message LeaderRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.LeaderRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a LeaderRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.LeaderRequest & palisade.v1.LeaderRequest.$Shape} LeaderRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.LeaderRequest & palisade.v1.LeaderRequest.$Shape;

            /**
             * Decodes a LeaderRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.LeaderRequest & palisade.v1.LeaderRequest.$Shape} LeaderRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.LeaderRequest & palisade.v1.LeaderRequest.$Shape;

            /**
             * Verifies a LeaderRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a LeaderRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns LeaderRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.LeaderRequest;

            /**
             * Creates a plain object from a LeaderRequest message. Also converts values to other types if specified.
             * @param message LeaderRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.LeaderRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this LeaderRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for LeaderRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace LeaderRequest {

            /** Properties of a LeaderRequest. */
            interface $Properties {

                /** LeaderRequest election */
                election?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a LeaderRequest. */
            type $Shape = palisade.v1.LeaderRequest.$Properties;
        }

        /**
         * Properties of a LeaderResponse.
         * @deprecated Use palisade.v1.LeaderResponse.$Properties instead.
         */
        interface ILeaderResponse extends palisade.v1.LeaderResponse.$Properties {
        }

        /** Represents a LeaderResponse. */
        class LeaderResponse {

            /**
             * Constructs a new LeaderResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.LeaderResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** LeaderResponse leader. */
            leader?: (palisade.v1.Leadership.$Properties|null);

            /** LeaderResponse candidateCount. */
            candidateCount: number;

            /**
             * Creates a new LeaderResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns LeaderResponse instance
             */
            static create(properties: palisade.v1.LeaderResponse.$Shape): palisade.v1.LeaderResponse & palisade.v1.LeaderResponse.$Shape;
            static create(properties?: palisade.v1.LeaderResponse.$Properties): palisade.v1.LeaderResponse;

            /**
             * Encodes the specified LeaderResponse message. Does not implicitly {@link palisade.v1.LeaderResponse.verify|verify} messages.
             * @param message LeaderResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.LeaderResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified LeaderResponse message, length delimited. Does not implicitly {@link palisade.v1.LeaderResponse.verify|verify} messages.
             * @param message LeaderResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.LeaderResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a LeaderResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.LeaderResponse & palisade.v1.LeaderResponse.$Shape} LeaderResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.LeaderResponse & palisade.v1.LeaderResponse.$Shape;

            /**
             * Decodes a LeaderResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.LeaderResponse & palisade.v1.LeaderResponse.$Shape} LeaderResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.LeaderResponse & palisade.v1.LeaderResponse.$Shape;

            /**
             * Verifies a LeaderResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a LeaderResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns LeaderResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.LeaderResponse;

            /**
             * Creates a plain object from a LeaderResponse message. Also converts values to other types if specified.
             * @param message LeaderResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.LeaderResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this LeaderResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for LeaderResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace LeaderResponse {

            /** Properties of a LeaderResponse. */
            interface $Properties {

                /** LeaderResponse leader */
                leader?: (palisade.v1.Leadership.$Properties|null);

                /** LeaderResponse candidateCount */
                candidateCount?: (number|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a LeaderResponse. */
            type $Shape = palisade.v1.LeaderResponse.$Properties;
        }

        /**
         * Properties of an ObserveRequest.
         * @deprecated Use palisade.v1.ObserveRequest.$Properties instead.
         */
        interface IObserveRequest extends palisade.v1.ObserveRequest.$Properties {
        }

        /** Represents an ObserveRequest. */
        class ObserveRequest {

            /**
             * Constructs a new ObserveRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ObserveRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ObserveRequest election. */
            election: string;

            /** ObserveRequest fromIndex. */
            fromIndex: Long;

            /**
             * Creates a new ObserveRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ObserveRequest instance
             */
            static create(properties: palisade.v1.ObserveRequest.$Shape): palisade.v1.ObserveRequest & palisade.v1.ObserveRequest.$Shape;
            static create(properties?: palisade.v1.ObserveRequest.$Properties): palisade.v1.ObserveRequest;

            /**
             * Encodes the specified ObserveRequest message. Does not implicitly {@link palisade.v1.ObserveRequest.verify|verify} messages.
             * @param message ObserveRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ObserveRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ObserveRequest message, length delimited. Does not implicitly {@link palisade.v1.ObserveRequest.verify|verify} messages.
             * @param message ObserveRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ObserveRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an ObserveRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ObserveRequest & palisade.v1.ObserveRequest.$Shape} ObserveRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ObserveRequest & palisade.v1.ObserveRequest.$Shape;

            /**
             * Decodes an ObserveRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ObserveRequest & palisade.v1.ObserveRequest.$Shape} ObserveRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ObserveRequest & palisade.v1.ObserveRequest.$Shape;

            /**
             * Verifies an ObserveRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an ObserveRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ObserveRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ObserveRequest;

            /**
             * Creates a plain object from an ObserveRequest message. Also converts values to other types if specified.
             * @param message ObserveRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ObserveRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ObserveRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ObserveRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ObserveRequest {

            /** Properties of an ObserveRequest. */
            interface $Properties {

                /** ObserveRequest election */
                election?: (string|null);

                /** ObserveRequest fromIndex */
                fromIndex?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an ObserveRequest. */
            type $Shape = palisade.v1.ObserveRequest.$Properties;
        }

        /** ElectionEventKind enum. */
        enum ElectionEventKind {

            /** ELECTION_EVENT_KIND_UNSPECIFIED value */
            ELECTION_EVENT_KIND_UNSPECIFIED = 0,

            /** ELECTION_EVENT_KIND_LEADER value */
            ELECTION_EVENT_KIND_LEADER = 1,

            /** ELECTION_EVENT_KIND_VALUE value */
            ELECTION_EVENT_KIND_VALUE = 2,

            /** ELECTION_EVENT_KIND_NO_LEADER value */
            ELECTION_EVENT_KIND_NO_LEADER = 3
        }

        /**
         * Properties of an ElectionEvent.
         * @deprecated Use palisade.v1.ElectionEvent.$Properties instead.
         */
        interface IElectionEvent extends palisade.v1.ElectionEvent.$Properties {
        }

        /** Represents an ElectionEvent. */
        class ElectionEvent {

            /**
             * Constructs a new ElectionEvent.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ElectionEvent.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ElectionEvent index. */
            index: Long;

            /** ElectionEvent kind. */
            kind: palisade.v1.ElectionEventKind;

            /** ElectionEvent leader. */
            leader?: (palisade.v1.Leadership.$Properties|null);

            /** ElectionEvent ended. */
            ended: palisade.v1.EndReason;

            /** ElectionEvent endedToken. */
            endedToken: Long;

            /**
             * Creates a new ElectionEvent instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ElectionEvent instance
             */
            static create(properties: palisade.v1.ElectionEvent.$Shape): palisade.v1.ElectionEvent & palisade.v1.ElectionEvent.$Shape;
            static create(properties?: palisade.v1.ElectionEvent.$Properties): palisade.v1.ElectionEvent;

            /**
             * Encodes the specified ElectionEvent message. Does not implicitly {@link palisade.v1.ElectionEvent.verify|verify} messages.
             * @param message ElectionEvent message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ElectionEvent.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ElectionEvent message, length delimited. Does not implicitly {@link palisade.v1.ElectionEvent.verify|verify} messages.
             * @param message ElectionEvent message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ElectionEvent.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an ElectionEvent message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ElectionEvent & palisade.v1.ElectionEvent.$Shape} ElectionEvent
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ElectionEvent & palisade.v1.ElectionEvent.$Shape;

            /**
             * Decodes an ElectionEvent message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ElectionEvent & palisade.v1.ElectionEvent.$Shape} ElectionEvent
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ElectionEvent & palisade.v1.ElectionEvent.$Shape;

            /**
             * Verifies an ElectionEvent message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an ElectionEvent message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ElectionEvent
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ElectionEvent;

            /**
             * Creates a plain object from an ElectionEvent message. Also converts values to other types if specified.
             * @param message ElectionEvent
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ElectionEvent, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ElectionEvent to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ElectionEvent
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ElectionEvent {

            /** Properties of an ElectionEvent. */
            interface $Properties {

                /** ElectionEvent index */
                index?: (Long|null);

                /** ElectionEvent kind */
                kind?: (palisade.v1.ElectionEventKind|null);

                /** ElectionEvent leader */
                leader?: (palisade.v1.Leadership.$Properties|null);

                /** ElectionEvent ended */
                ended?: (palisade.v1.EndReason|null);

                /** ElectionEvent endedToken */
                endedToken?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an ElectionEvent. */
            type $Shape = palisade.v1.ElectionEvent.$Properties;
        }

        /**
         * Properties of an UpgradeRequest.
         * @deprecated Use palisade.v1.UpgradeRequest.$Properties instead.
         */
        interface IUpgradeRequest extends palisade.v1.UpgradeRequest.$Properties {
        }

        /** Represents an UpgradeRequest. */
        class UpgradeRequest {

            /**
             * Constructs a new UpgradeRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.UpgradeRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** UpgradeRequest sessionId. */
            sessionId: Long;

            /** UpgradeRequest lock. */
            lock: string;

            /** UpgradeRequest token. */
            token: Long;

            /** UpgradeRequest waitMs. */
            waitMs: Long;

            /** UpgradeRequest seq. */
            seq: Long;

            /** UpgradeRequest ackedUpTo. */
            ackedUpTo: Long;

            /** UpgradeRequest held. */
            held: Long[];

            /**
             * Creates a new UpgradeRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns UpgradeRequest instance
             */
            static create(properties: palisade.v1.UpgradeRequest.$Shape): palisade.v1.UpgradeRequest & palisade.v1.UpgradeRequest.$Shape;
            static create(properties?: palisade.v1.UpgradeRequest.$Properties): palisade.v1.UpgradeRequest;

            /**
             * Encodes the specified UpgradeRequest message. Does not implicitly {@link palisade.v1.UpgradeRequest.verify|verify} messages.
             * @param message UpgradeRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.UpgradeRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified UpgradeRequest message, length delimited. Does not implicitly {@link palisade.v1.UpgradeRequest.verify|verify} messages.
             * @param message UpgradeRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.UpgradeRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an UpgradeRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.UpgradeRequest & palisade.v1.UpgradeRequest.$Shape} UpgradeRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.UpgradeRequest & palisade.v1.UpgradeRequest.$Shape;

            /**
             * Decodes an UpgradeRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.UpgradeRequest & palisade.v1.UpgradeRequest.$Shape} UpgradeRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.UpgradeRequest & palisade.v1.UpgradeRequest.$Shape;

            /**
             * Verifies an UpgradeRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an UpgradeRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns UpgradeRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.UpgradeRequest;

            /**
             * Creates a plain object from an UpgradeRequest message. Also converts values to other types if specified.
             * @param message UpgradeRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.UpgradeRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this UpgradeRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for UpgradeRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpgradeRequest {

            /** Properties of an UpgradeRequest. */
            interface $Properties {

                /** UpgradeRequest sessionId */
                sessionId?: (Long|null);

                /** UpgradeRequest lock */
                lock?: (string|null);

                /** UpgradeRequest token */
                token?: (Long|null);

                /** UpgradeRequest waitMs */
                waitMs?: (Long|null);

                /** UpgradeRequest seq */
                seq?: (Long|null);

                /** UpgradeRequest ackedUpTo */
                ackedUpTo?: (Long|null);

                /** UpgradeRequest held */
                held?: (Long[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an UpgradeRequest. */
            type $Shape = palisade.v1.UpgradeRequest.$Properties;
        }

        /**
         * Properties of an UpgradeResponse.
         * @deprecated Use palisade.v1.UpgradeResponse.$Properties instead.
         */
        interface IUpgradeResponse extends palisade.v1.UpgradeResponse.$Properties {
        }

        /** Represents an UpgradeResponse. */
        class UpgradeResponse {

            /**
             * Constructs a new UpgradeResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.UpgradeResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** UpgradeResponse upgraded. */
            upgraded: boolean;

            /** UpgradeResponse token. */
            token: Long;

            /** UpgradeResponse holder. */
            holder?: (palisade.v1.LockHolder.$Properties|null);

            /** UpgradeResponse cancelled. */
            cancelled: boolean;

            /**
             * Creates a new UpgradeResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns UpgradeResponse instance
             */
            static create(properties: palisade.v1.UpgradeResponse.$Shape): palisade.v1.UpgradeResponse & palisade.v1.UpgradeResponse.$Shape;
            static create(properties?: palisade.v1.UpgradeResponse.$Properties): palisade.v1.UpgradeResponse;

            /**
             * Encodes the specified UpgradeResponse message. Does not implicitly {@link palisade.v1.UpgradeResponse.verify|verify} messages.
             * @param message UpgradeResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.UpgradeResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified UpgradeResponse message, length delimited. Does not implicitly {@link palisade.v1.UpgradeResponse.verify|verify} messages.
             * @param message UpgradeResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.UpgradeResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an UpgradeResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.UpgradeResponse & palisade.v1.UpgradeResponse.$Shape} UpgradeResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.UpgradeResponse & palisade.v1.UpgradeResponse.$Shape;

            /**
             * Decodes an UpgradeResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.UpgradeResponse & palisade.v1.UpgradeResponse.$Shape} UpgradeResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.UpgradeResponse & palisade.v1.UpgradeResponse.$Shape;

            /**
             * Verifies an UpgradeResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an UpgradeResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns UpgradeResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.UpgradeResponse;

            /**
             * Creates a plain object from an UpgradeResponse message. Also converts values to other types if specified.
             * @param message UpgradeResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.UpgradeResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this UpgradeResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for UpgradeResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpgradeResponse {

            /** Properties of an UpgradeResponse. */
            interface $Properties {

                /** UpgradeResponse upgraded */
                upgraded?: (boolean|null);

                /** UpgradeResponse token */
                token?: (Long|null);

                /** UpgradeResponse holder */
                holder?: (palisade.v1.LockHolder.$Properties|null);

                /** UpgradeResponse cancelled */
                cancelled?: (boolean|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an UpgradeResponse. */
            type $Shape = palisade.v1.UpgradeResponse.$Properties;
        }

        /**
         * Properties of a DowngradeRequest.
         * @deprecated Use palisade.v1.DowngradeRequest.$Properties instead.
         */
        interface IDowngradeRequest extends palisade.v1.DowngradeRequest.$Properties {
        }

        /** Represents a DowngradeRequest. */
        class DowngradeRequest {

            /**
             * Constructs a new DowngradeRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.DowngradeRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** DowngradeRequest sessionId. */
            sessionId: Long;

            /** DowngradeRequest lock. */
            lock: string;

            /** DowngradeRequest token. */
            token: Long;

            /** DowngradeRequest mode. */
            mode: palisade.v1.LockMode;

            /** DowngradeRequest seq. */
            seq: Long;

            /** DowngradeRequest ackedUpTo. */
            ackedUpTo: Long;

            /** DowngradeRequest held. */
            held: Long[];

            /**
             * Creates a new DowngradeRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns DowngradeRequest instance
             */
            static create(properties: palisade.v1.DowngradeRequest.$Shape): palisade.v1.DowngradeRequest & palisade.v1.DowngradeRequest.$Shape;
            static create(properties?: palisade.v1.DowngradeRequest.$Properties): palisade.v1.DowngradeRequest;

            /**
             * Encodes the specified DowngradeRequest message. Does not implicitly {@link palisade.v1.DowngradeRequest.verify|verify} messages.
             * @param message DowngradeRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.DowngradeRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified DowngradeRequest message, length delimited. Does not implicitly {@link palisade.v1.DowngradeRequest.verify|verify} messages.
             * @param message DowngradeRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.DowngradeRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a DowngradeRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.DowngradeRequest & palisade.v1.DowngradeRequest.$Shape} DowngradeRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.DowngradeRequest & palisade.v1.DowngradeRequest.$Shape;

            /**
             * Decodes a DowngradeRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.DowngradeRequest & palisade.v1.DowngradeRequest.$Shape} DowngradeRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.DowngradeRequest & palisade.v1.DowngradeRequest.$Shape;

            /**
             * Verifies a DowngradeRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a DowngradeRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns DowngradeRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.DowngradeRequest;

            /**
             * Creates a plain object from a DowngradeRequest message. Also converts values to other types if specified.
             * @param message DowngradeRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.DowngradeRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this DowngradeRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for DowngradeRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace DowngradeRequest {

            /** Properties of a DowngradeRequest. */
            interface $Properties {

                /** DowngradeRequest sessionId */
                sessionId?: (Long|null);

                /** DowngradeRequest lock */
                lock?: (string|null);

                /** DowngradeRequest token */
                token?: (Long|null);

                /** DowngradeRequest mode */
                mode?: (palisade.v1.LockMode|null);

                /** DowngradeRequest seq */
                seq?: (Long|null);

                /** DowngradeRequest ackedUpTo */
                ackedUpTo?: (Long|null);

                /** DowngradeRequest held */
                held?: (Long[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a DowngradeRequest. */
            type $Shape = palisade.v1.DowngradeRequest.$Properties;
        }

        /**
         * Properties of a DowngradeResponse.
         * @deprecated Use palisade.v1.DowngradeResponse.$Properties instead.
         */
        interface IDowngradeResponse extends palisade.v1.DowngradeResponse.$Properties {
        }

        /** Represents a DowngradeResponse. */
        class DowngradeResponse {

            /**
             * Constructs a new DowngradeResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.DowngradeResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** DowngradeResponse token. */
            token: Long;

            /** DowngradeResponse mode. */
            mode: palisade.v1.LockMode;

            /**
             * Creates a new DowngradeResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns DowngradeResponse instance
             */
            static create(properties: palisade.v1.DowngradeResponse.$Shape): palisade.v1.DowngradeResponse & palisade.v1.DowngradeResponse.$Shape;
            static create(properties?: palisade.v1.DowngradeResponse.$Properties): palisade.v1.DowngradeResponse;

            /**
             * Encodes the specified DowngradeResponse message. Does not implicitly {@link palisade.v1.DowngradeResponse.verify|verify} messages.
             * @param message DowngradeResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.DowngradeResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified DowngradeResponse message, length delimited. Does not implicitly {@link palisade.v1.DowngradeResponse.verify|verify} messages.
             * @param message DowngradeResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.DowngradeResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a DowngradeResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.DowngradeResponse & palisade.v1.DowngradeResponse.$Shape} DowngradeResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.DowngradeResponse & palisade.v1.DowngradeResponse.$Shape;

            /**
             * Decodes a DowngradeResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.DowngradeResponse & palisade.v1.DowngradeResponse.$Shape} DowngradeResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.DowngradeResponse & palisade.v1.DowngradeResponse.$Shape;

            /**
             * Verifies a DowngradeResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a DowngradeResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns DowngradeResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.DowngradeResponse;

            /**
             * Creates a plain object from a DowngradeResponse message. Also converts values to other types if specified.
             * @param message DowngradeResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.DowngradeResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this DowngradeResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for DowngradeResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace DowngradeResponse {

            /** Properties of a DowngradeResponse. */
            interface $Properties {

                /** DowngradeResponse token */
                token?: (Long|null);

                /** DowngradeResponse mode */
                mode?: (palisade.v1.LockMode|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a DowngradeResponse. */
            type $Shape = palisade.v1.DowngradeResponse.$Properties;
        }

        /** ErrorReason enum. */
        enum ErrorReason {

            /** ERROR_REASON_UNSPECIFIED value */
            ERROR_REASON_UNSPECIFIED = 0,

            /** ERROR_REASON_INVALID_ARGUMENT value */
            ERROR_REASON_INVALID_ARGUMENT = 1,

            /** ERROR_REASON_MALFORMED_REQUEST value */
            ERROR_REASON_MALFORMED_REQUEST = 2,

            /** ERROR_REASON_NOT_AN_ACQUIRE value */
            ERROR_REASON_NOT_AN_ACQUIRE = 3,

            /** ERROR_REASON_SESSION_NOT_FOUND value */
            ERROR_REASON_SESSION_NOT_FOUND = 4,

            /** ERROR_REASON_SESSION_ENDED value */
            ERROR_REASON_SESSION_ENDED = 5,

            /** ERROR_REASON_NO_SUCH_WAIT value */
            ERROR_REASON_NO_SUCH_WAIT = 6,

            /** ERROR_REASON_STALE_TOKEN value */
            ERROR_REASON_STALE_TOKEN = 7,

            /** ERROR_REASON_NOT_HOLDER value */
            ERROR_REASON_NOT_HOLDER = 8,

            /** ERROR_REASON_REQUEST_TOO_OLD value */
            ERROR_REASON_REQUEST_TOO_OLD = 9,

            /** ERROR_REASON_NO_TRANSFER_TARGET value */
            ERROR_REASON_NO_TRANSFER_TARGET = 10,

            /** ERROR_REASON_LEARNER_BEHIND value */
            ERROR_REASON_LEARNER_BEHIND = 11,

            /** ERROR_REASON_MEMBERSHIP_REFUSED value */
            ERROR_REASON_MEMBERSHIP_REFUSED = 12,

            /** ERROR_REASON_TOO_MANY_SESSIONS value */
            ERROR_REASON_TOO_MANY_SESSIONS = 13,

            /** ERROR_REASON_TOO_MANY_LOCKS_IN_SESSION value */
            ERROR_REASON_TOO_MANY_LOCKS_IN_SESSION = 14,

            /** ERROR_REASON_TOO_MANY_WAITERS value */
            ERROR_REASON_TOO_MANY_WAITERS = 15,

            /** ERROR_REASON_TOO_MANY_IN_FLIGHT value */
            ERROR_REASON_TOO_MANY_IN_FLIGHT = 16,

            /** ERROR_REASON_RATE_LIMITED value */
            ERROR_REASON_RATE_LIMITED = 17,

            /** ERROR_REASON_DISK_RESERVE value */
            ERROR_REASON_DISK_RESERVE = 18,

            /** ERROR_REASON_WATCH_TOO_SLOW value */
            ERROR_REASON_WATCH_TOO_SLOW = 19,

            /** ERROR_REASON_NOT_LEADER value */
            ERROR_REASON_NOT_LEADER = 20,

            /** ERROR_REASON_NO_LEADER value */
            ERROR_REASON_NO_LEADER = 21,

            /** ERROR_REASON_PROPOSAL_DROPPED value */
            ERROR_REASON_PROPOSAL_DROPPED = 22,

            /** ERROR_REASON_LEADERSHIP_CHANGED value */
            ERROR_REASON_LEADERSHIP_CHANGED = 23,

            /** ERROR_REASON_READ_NOT_CONFIRMED value */
            ERROR_REASON_READ_NOT_CONFIRMED = 24,

            /** ERROR_REASON_SHUTTING_DOWN value */
            ERROR_REASON_SHUTTING_DOWN = 25,

            /** ERROR_REASON_WAIT_DETACHED value */
            ERROR_REASON_WAIT_DETACHED = 26,

            /** ERROR_REASON_NODE_BUSY value */
            ERROR_REASON_NODE_BUSY = 27,

            /** ERROR_REASON_BELOW_RETENTION value */
            ERROR_REASON_BELOW_RETENTION = 28,

            /** ERROR_REASON_SNAPSHOT_INSTALLED value */
            ERROR_REASON_SNAPSHOT_INSTALLED = 29,

            /** ERROR_REASON_TRANSFER_TIMED_OUT value */
            ERROR_REASON_TRANSFER_TIMED_OUT = 30,

            /** ERROR_REASON_CERTIFICATE_REQUIRED value */
            ERROR_REASON_CERTIFICATE_REQUIRED = 31,

            /** ERROR_REASON_PERMISSION_DENIED value */
            ERROR_REASON_PERMISSION_DENIED = 32,

            /** ERROR_REASON_UNSUPPORTED value */
            ERROR_REASON_UNSUPPORTED = 33,

            /** ERROR_REASON_INTERNAL value */
            ERROR_REASON_INTERNAL = 34,

            /** ERROR_REASON_HELD_IN_ANOTHER_MODE value */
            ERROR_REASON_HELD_IN_ANOTHER_MODE = 35,

            /** ERROR_REASON_KIND_MISMATCH value */
            ERROR_REASON_KIND_MISMATCH = 36,

            /** ERROR_REASON_PERMITS_MISMATCH value */
            ERROR_REASON_PERMITS_MISMATCH = 37,

            /** ERROR_REASON_SET_PARTLY_HELD value */
            ERROR_REASON_SET_PARTLY_HELD = 38,

            /** ERROR_REASON_WAITS_IN_ANOTHER_REQUEST value */
            ERROR_REASON_WAITS_IN_ANOTHER_REQUEST = 39,

            /** ERROR_REASON_TOO_MANY_WAITS_ON_STREAM value */
            ERROR_REASON_TOO_MANY_WAITS_ON_STREAM = 40,

            /** ERROR_REASON_SUCCESSOR_NOT_WAITING value */
            ERROR_REASON_SUCCESSOR_NOT_WAITING = 41,

            /** ERROR_REASON_UNAUTHENTICATED value */
            ERROR_REASON_UNAUTHENTICATED = 42,

            /** ERROR_REASON_QUOTA_EXCEEDED value */
            ERROR_REASON_QUOTA_EXCEEDED = 43
        }

        /**
         * Properties of a ClientFrame.
         * @deprecated Use palisade.v1.ClientFrame.$Properties instead.
         */
        interface IClientFrame extends palisade.v1.ClientFrame.$Properties {
        }

        /** Represents a ClientFrame. */
        class ClientFrame {

            /**
             * Constructs a new ClientFrame.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ClientFrame.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ClientFrame requests. */
            requests: palisade.v1.StreamRequest.$Properties[];

            /**
             * Creates a new ClientFrame instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ClientFrame instance
             */
            static create(properties: palisade.v1.ClientFrame.$Shape): palisade.v1.ClientFrame & palisade.v1.ClientFrame.$Shape;
            static create(properties?: palisade.v1.ClientFrame.$Properties): palisade.v1.ClientFrame;

            /**
             * Encodes the specified ClientFrame message. Does not implicitly {@link palisade.v1.ClientFrame.verify|verify} messages.
             * @param message ClientFrame message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ClientFrame.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ClientFrame message, length delimited. Does not implicitly {@link palisade.v1.ClientFrame.verify|verify} messages.
             * @param message ClientFrame message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ClientFrame.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ClientFrame message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ClientFrame & palisade.v1.ClientFrame.$Shape} ClientFrame
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ClientFrame & palisade.v1.ClientFrame.$Shape;

            /**
             * Decodes a ClientFrame message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ClientFrame & palisade.v1.ClientFrame.$Shape} ClientFrame
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ClientFrame & palisade.v1.ClientFrame.$Shape;

            /**
             * Verifies a ClientFrame message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ClientFrame message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ClientFrame
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ClientFrame;

            /**
             * Creates a plain object from a ClientFrame message. Also converts values to other types if specified.
             * @param message ClientFrame
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ClientFrame, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ClientFrame to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ClientFrame
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ClientFrame {

            /** Properties of a ClientFrame. */
            interface $Properties {

                /** ClientFrame requests */
                requests?: (palisade.v1.StreamRequest.$Properties[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ClientFrame. */
            type $Shape = {
              requests?: palisade.v1.StreamRequest.$Shape[]|null;
              $unknowns?: Uint8Array[];
            };
        }

        /**
         * Properties of a StreamRequest.
         * @deprecated Use palisade.v1.StreamRequest.$Properties instead.
         */
        interface IStreamRequest extends palisade.v1.StreamRequest.$Properties {
        }

        /** Represents a StreamRequest. */
        class StreamRequest {

            /**
             * Constructs a new StreamRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.StreamRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** StreamRequest id. */
            id: Long;

            /** StreamRequest openSession. */
            openSession?: (palisade.v1.OpenSessionRequest.$Properties|null);

            /** StreamRequest keepAlive. */
            keepAlive?: (palisade.v1.KeepAliveRequest.$Properties|null);

            /** StreamRequest closeSession. */
            closeSession?: (palisade.v1.CloseSessionRequest.$Properties|null);

            /** StreamRequest acquire. */
            acquire?: (palisade.v1.AcquireRequest.$Properties|null);

            /** StreamRequest cancelWait. */
            cancelWait?: (palisade.v1.CancelWaitRequest.$Properties|null);

            /** StreamRequest release. */
            release?: (palisade.v1.ReleaseRequest.$Properties|null);

            /** StreamRequest getLock. */
            getLock?: (palisade.v1.GetLockRequest.$Properties|null);

            /** StreamRequest listLocks. */
            listLocks?: (palisade.v1.ListLocksRequest.$Properties|null);

            /** StreamRequest getSession. */
            getSession?: (palisade.v1.GetSessionRequest.$Properties|null);

            /** StreamRequest listSessions. */
            listSessions?: (palisade.v1.ListSessionsRequest.$Properties|null);

            /** StreamRequest getLockHistory. */
            getLockHistory?: (palisade.v1.GetLockHistoryRequest.$Properties|null);

            /** StreamRequest validateToken. */
            validateToken?: (palisade.v1.ValidateTokenRequest.$Properties|null);

            /** StreamRequest campaign. */
            campaign?: (palisade.v1.CampaignRequest.$Properties|null);

            /** StreamRequest proclaim. */
            proclaim?: (palisade.v1.ProclaimRequest.$Properties|null);

            /** StreamRequest resign. */
            resign?: (palisade.v1.ResignRequest.$Properties|null);

            /** StreamRequest leader. */
            leader?: (palisade.v1.LeaderRequest.$Properties|null);

            /** StreamRequest upgrade. */
            upgrade?: (palisade.v1.UpgradeRequest.$Properties|null);

            /** StreamRequest downgrade. */
            downgrade?: (palisade.v1.DowngradeRequest.$Properties|null);

            /** StreamRequest forget. */
            forget?: (palisade.v1.Forget.$Properties|null);

            /** StreamRequest call. */
            call?: ("openSession"|"keepAlive"|"closeSession"|"acquire"|"cancelWait"|"release"|"getLock"|"listLocks"|"getSession"|"listSessions"|"getLockHistory"|"validateToken"|"campaign"|"proclaim"|"resign"|"leader"|"upgrade"|"downgrade"|"forget");

            /**
             * Creates a new StreamRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns StreamRequest instance
             */
            static create(properties: palisade.v1.StreamRequest.$Shape): palisade.v1.StreamRequest & palisade.v1.StreamRequest.$Shape;
            static create(properties?: palisade.v1.StreamRequest.$Properties): palisade.v1.StreamRequest;

            /**
             * Encodes the specified StreamRequest message. Does not implicitly {@link palisade.v1.StreamRequest.verify|verify} messages.
             * @param message StreamRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.StreamRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified StreamRequest message, length delimited. Does not implicitly {@link palisade.v1.StreamRequest.verify|verify} messages.
             * @param message StreamRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.StreamRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a StreamRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.StreamRequest & palisade.v1.StreamRequest.$Shape} StreamRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.StreamRequest & palisade.v1.StreamRequest.$Shape;

            /**
             * Decodes a StreamRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.StreamRequest & palisade.v1.StreamRequest.$Shape} StreamRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.StreamRequest & palisade.v1.StreamRequest.$Shape;

            /**
             * Verifies a StreamRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a StreamRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns StreamRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.StreamRequest;

            /**
             * Creates a plain object from a StreamRequest message. Also converts values to other types if specified.
             * @param message StreamRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.StreamRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this StreamRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for StreamRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace StreamRequest {

            /** Properties of a StreamRequest. */
            interface $Properties {

                /** StreamRequest id */
                id?: (Long|null);

                /** StreamRequest openSession */
                openSession?: (palisade.v1.OpenSessionRequest.$Properties|null);

                /** StreamRequest keepAlive */
                keepAlive?: (palisade.v1.KeepAliveRequest.$Properties|null);

                /** StreamRequest closeSession */
                closeSession?: (palisade.v1.CloseSessionRequest.$Properties|null);

                /** StreamRequest acquire */
                acquire?: (palisade.v1.AcquireRequest.$Properties|null);

                /** StreamRequest cancelWait */
                cancelWait?: (palisade.v1.CancelWaitRequest.$Properties|null);

                /** StreamRequest release */
                release?: (palisade.v1.ReleaseRequest.$Properties|null);

                /** StreamRequest getLock */
                getLock?: (palisade.v1.GetLockRequest.$Properties|null);

                /** StreamRequest listLocks */
                listLocks?: (palisade.v1.ListLocksRequest.$Properties|null);

                /** StreamRequest getSession */
                getSession?: (palisade.v1.GetSessionRequest.$Properties|null);

                /** StreamRequest listSessions */
                listSessions?: (palisade.v1.ListSessionsRequest.$Properties|null);

                /** StreamRequest getLockHistory */
                getLockHistory?: (palisade.v1.GetLockHistoryRequest.$Properties|null);

                /** StreamRequest validateToken */
                validateToken?: (palisade.v1.ValidateTokenRequest.$Properties|null);

                /** StreamRequest campaign */
                campaign?: (palisade.v1.CampaignRequest.$Properties|null);

                /** StreamRequest proclaim */
                proclaim?: (palisade.v1.ProclaimRequest.$Properties|null);

                /** StreamRequest resign */
                resign?: (palisade.v1.ResignRequest.$Properties|null);

                /** StreamRequest leader */
                leader?: (palisade.v1.LeaderRequest.$Properties|null);

                /** StreamRequest upgrade */
                upgrade?: (palisade.v1.UpgradeRequest.$Properties|null);

                /** StreamRequest downgrade */
                downgrade?: (palisade.v1.DowngradeRequest.$Properties|null);

                /** StreamRequest forget */
                forget?: (palisade.v1.Forget.$Properties|null);

                /** StreamRequest call */
                call?: ("openSession"|"keepAlive"|"closeSession"|"acquire"|"cancelWait"|"release"|"getLock"|"listLocks"|"getSession"|"listSessions"|"getLockHistory"|"validateToken"|"campaign"|"proclaim"|"resign"|"leader"|"upgrade"|"downgrade"|"forget");

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Narrowed shape of a StreamRequest. */
            type $Shape = {
              id?: Long|null;
              openSession?: palisade.v1.OpenSessionRequest.$Shape|null;
              keepAlive?: palisade.v1.KeepAliveRequest.$Shape|null;
              closeSession?: palisade.v1.CloseSessionRequest.$Shape|null;
              acquire?: palisade.v1.AcquireRequest.$Shape|null;
              cancelWait?: palisade.v1.CancelWaitRequest.$Shape|null;
              release?: palisade.v1.ReleaseRequest.$Shape|null;
              getLock?: palisade.v1.GetLockRequest.$Shape|null;
              listLocks?: palisade.v1.ListLocksRequest.$Shape|null;
              getSession?: palisade.v1.GetSessionRequest.$Shape|null;
              listSessions?: palisade.v1.ListSessionsRequest.$Shape|null;
              getLockHistory?: palisade.v1.GetLockHistoryRequest.$Shape|null;
              validateToken?: palisade.v1.ValidateTokenRequest.$Shape|null;
              campaign?: palisade.v1.CampaignRequest.$Shape|null;
              proclaim?: palisade.v1.ProclaimRequest.$Shape|null;
              resign?: palisade.v1.ResignRequest.$Shape|null;
              leader?: palisade.v1.LeaderRequest.$Shape|null;
              upgrade?: palisade.v1.UpgradeRequest.$Shape|null;
              downgrade?: palisade.v1.DowngradeRequest.$Shape|null;
              forget?: palisade.v1.Forget.$Shape|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ call?: undefined; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "openSession"; openSession: palisade.v1.OpenSessionRequest.$Shape; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "keepAlive"; openSession?: null; keepAlive: palisade.v1.KeepAliveRequest.$Shape; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "closeSession"; openSession?: null; keepAlive?: null; closeSession: palisade.v1.CloseSessionRequest.$Shape; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "acquire"; openSession?: null; keepAlive?: null; closeSession?: null; acquire: palisade.v1.AcquireRequest.$Shape; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "cancelWait"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait: palisade.v1.CancelWaitRequest.$Shape; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "release"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release: palisade.v1.ReleaseRequest.$Shape; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "getLock"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock: palisade.v1.GetLockRequest.$Shape; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "listLocks"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks: palisade.v1.ListLocksRequest.$Shape; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "getSession"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession: palisade.v1.GetSessionRequest.$Shape; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "listSessions"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions: palisade.v1.ListSessionsRequest.$Shape; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "getLockHistory"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory: palisade.v1.GetLockHistoryRequest.$Shape; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "validateToken"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken: palisade.v1.ValidateTokenRequest.$Shape; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "campaign"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign: palisade.v1.CampaignRequest.$Shape; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "proclaim"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim: palisade.v1.ProclaimRequest.$Shape; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "resign"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign: palisade.v1.ResignRequest.$Shape; leader?: null; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "leader"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader: palisade.v1.LeaderRequest.$Shape; upgrade?: null; downgrade?: null; forget?: null }|{ call?: "upgrade"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade: palisade.v1.UpgradeRequest.$Shape; downgrade?: null; forget?: null }|{ call?: "downgrade"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade: palisade.v1.DowngradeRequest.$Shape; forget?: null }|{ call?: "forget"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; forget: palisade.v1.Forget.$Shape })
            );
        }

        /**
         * Properties of a Forget.
         * @deprecated Use palisade.v1.Forget.$Properties instead.
         */
        interface IForget extends palisade.v1.Forget.$Properties {
        }

        /** Represents a Forget. */
        class Forget {

            /**
             * Constructs a new Forget.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.Forget.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new Forget instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Forget instance
             */
            static create(properties: palisade.v1.Forget.$Shape): palisade.v1.Forget & palisade.v1.Forget.$Shape;
            static create(properties?: palisade.v1.Forget.$Properties): palisade.v1.Forget;

            /**
             * Encodes the specified Forget message. Does not implicitly {@link palisade.v1.Forget.verify|verify} messages.
             * @param message Forget message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.Forget.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Forget message, length delimited. Does not implicitly {@link palisade.v1.Forget.verify|verify} messages.
             * @param message Forget message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.Forget.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Forget message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.Forget & palisade.v1.Forget.$Shape} Forget
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.Forget & palisade.v1.Forget.$Shape;

            /**
             * Decodes a Forget message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.Forget & palisade.v1.Forget.$Shape} Forget
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.Forget & palisade.v1.Forget.$Shape;

            /**
             * Verifies a Forget message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Forget message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Forget
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.Forget;

            /**
             * Creates a plain object from a Forget message. Also converts values to other types if specified.
             * @param message Forget
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.Forget, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Forget to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Forget
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Forget {

            /** Properties of a Forget. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Forget. */
            type $Shape = palisade.v1.Forget.$Properties;
        }

        /**
         * Properties of a ServerFrame.
         * @deprecated Use palisade.v1.ServerFrame.$Properties instead.
         */
        interface IServerFrame extends palisade.v1.ServerFrame.$Properties {
        }

        /** Represents a ServerFrame. */
        class ServerFrame {

            /**
             * Constructs a new ServerFrame.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ServerFrame.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ServerFrame answers. */
            answers: palisade.v1.StreamAnswer.$Properties[];

            /**
             * Creates a new ServerFrame instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ServerFrame instance
             */
            static create(properties: palisade.v1.ServerFrame.$Shape): palisade.v1.ServerFrame & palisade.v1.ServerFrame.$Shape;
            static create(properties?: palisade.v1.ServerFrame.$Properties): palisade.v1.ServerFrame;

            /**
             * Encodes the specified ServerFrame message. Does not implicitly {@link palisade.v1.ServerFrame.verify|verify} messages.
             * @param message ServerFrame message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ServerFrame.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ServerFrame message, length delimited. Does not implicitly {@link palisade.v1.ServerFrame.verify|verify} messages.
             * @param message ServerFrame message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ServerFrame.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ServerFrame message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ServerFrame & palisade.v1.ServerFrame.$Shape} ServerFrame
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ServerFrame & palisade.v1.ServerFrame.$Shape;

            /**
             * Decodes a ServerFrame message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ServerFrame & palisade.v1.ServerFrame.$Shape} ServerFrame
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ServerFrame & palisade.v1.ServerFrame.$Shape;

            /**
             * Verifies a ServerFrame message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ServerFrame message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ServerFrame
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ServerFrame;

            /**
             * Creates a plain object from a ServerFrame message. Also converts values to other types if specified.
             * @param message ServerFrame
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ServerFrame, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ServerFrame to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ServerFrame
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ServerFrame {

            /** Properties of a ServerFrame. */
            interface $Properties {

                /** ServerFrame answers */
                answers?: (palisade.v1.StreamAnswer.$Properties[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ServerFrame. */
            type $Shape = {
              answers?: palisade.v1.StreamAnswer.$Shape[]|null;
              $unknowns?: Uint8Array[];
            };
        }

        /**
         * Properties of a StreamAnswer.
         * @deprecated Use palisade.v1.StreamAnswer.$Properties instead.
         */
        interface IStreamAnswer extends palisade.v1.StreamAnswer.$Properties {
        }

        /** Represents a StreamAnswer. */
        class StreamAnswer {

            /**
             * Constructs a new StreamAnswer.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.StreamAnswer.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** StreamAnswer id. */
            id: Long;

            /** StreamAnswer openSession. */
            openSession?: (palisade.v1.OpenSessionResponse.$Properties|null);

            /** StreamAnswer keepAlive. */
            keepAlive?: (palisade.v1.KeepAliveResponse.$Properties|null);

            /** StreamAnswer closeSession. */
            closeSession?: (palisade.v1.CloseSessionResponse.$Properties|null);

            /** StreamAnswer acquire. */
            acquire?: (palisade.v1.AcquireResponse.$Properties|null);

            /** StreamAnswer cancelWait. */
            cancelWait?: (palisade.v1.CancelWaitResponse.$Properties|null);

            /** StreamAnswer release. */
            release?: (palisade.v1.ReleaseResponse.$Properties|null);

            /** StreamAnswer getLock. */
            getLock?: (palisade.v1.GetLockResponse.$Properties|null);

            /** StreamAnswer listLocks. */
            listLocks?: (palisade.v1.ListLocksResponse.$Properties|null);

            /** StreamAnswer getSession. */
            getSession?: (palisade.v1.GetSessionResponse.$Properties|null);

            /** StreamAnswer listSessions. */
            listSessions?: (palisade.v1.ListSessionsResponse.$Properties|null);

            /** StreamAnswer getLockHistory. */
            getLockHistory?: (palisade.v1.GetLockHistoryResponse.$Properties|null);

            /** StreamAnswer validateToken. */
            validateToken?: (palisade.v1.ValidateTokenResponse.$Properties|null);

            /** StreamAnswer campaign. */
            campaign?: (palisade.v1.CampaignResponse.$Properties|null);

            /** StreamAnswer proclaim. */
            proclaim?: (palisade.v1.ProclaimResponse.$Properties|null);

            /** StreamAnswer resign. */
            resign?: (palisade.v1.ResignResponse.$Properties|null);

            /** StreamAnswer leader. */
            leader?: (palisade.v1.LeaderResponse.$Properties|null);

            /** StreamAnswer upgrade. */
            upgrade?: (palisade.v1.UpgradeResponse.$Properties|null);

            /** StreamAnswer downgrade. */
            downgrade?: (palisade.v1.DowngradeResponse.$Properties|null);

            /** StreamAnswer failure. */
            failure?: (palisade.v1.StreamFailure.$Properties|null);

            /** StreamAnswer result. */
            result?: ("openSession"|"keepAlive"|"closeSession"|"acquire"|"cancelWait"|"release"|"getLock"|"listLocks"|"getSession"|"listSessions"|"getLockHistory"|"validateToken"|"campaign"|"proclaim"|"resign"|"leader"|"upgrade"|"downgrade"|"failure");

            /**
             * Creates a new StreamAnswer instance using the specified properties.
             * @param [properties] Properties to set
             * @returns StreamAnswer instance
             */
            static create(properties: palisade.v1.StreamAnswer.$Shape): palisade.v1.StreamAnswer & palisade.v1.StreamAnswer.$Shape;
            static create(properties?: palisade.v1.StreamAnswer.$Properties): palisade.v1.StreamAnswer;

            /**
             * Encodes the specified StreamAnswer message. Does not implicitly {@link palisade.v1.StreamAnswer.verify|verify} messages.
             * @param message StreamAnswer message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.StreamAnswer.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified StreamAnswer message, length delimited. Does not implicitly {@link palisade.v1.StreamAnswer.verify|verify} messages.
             * @param message StreamAnswer message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.StreamAnswer.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a StreamAnswer message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.StreamAnswer & palisade.v1.StreamAnswer.$Shape} StreamAnswer
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.StreamAnswer & palisade.v1.StreamAnswer.$Shape;

            /**
             * Decodes a StreamAnswer message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.StreamAnswer & palisade.v1.StreamAnswer.$Shape} StreamAnswer
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.StreamAnswer & palisade.v1.StreamAnswer.$Shape;

            /**
             * Verifies a StreamAnswer message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a StreamAnswer message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns StreamAnswer
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.StreamAnswer;

            /**
             * Creates a plain object from a StreamAnswer message. Also converts values to other types if specified.
             * @param message StreamAnswer
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.StreamAnswer, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this StreamAnswer to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for StreamAnswer
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace StreamAnswer {

            /** Properties of a StreamAnswer. */
            interface $Properties {

                /** StreamAnswer id */
                id?: (Long|null);

                /** StreamAnswer openSession */
                openSession?: (palisade.v1.OpenSessionResponse.$Properties|null);

                /** StreamAnswer keepAlive */
                keepAlive?: (palisade.v1.KeepAliveResponse.$Properties|null);

                /** StreamAnswer closeSession */
                closeSession?: (palisade.v1.CloseSessionResponse.$Properties|null);

                /** StreamAnswer acquire */
                acquire?: (palisade.v1.AcquireResponse.$Properties|null);

                /** StreamAnswer cancelWait */
                cancelWait?: (palisade.v1.CancelWaitResponse.$Properties|null);

                /** StreamAnswer release */
                release?: (palisade.v1.ReleaseResponse.$Properties|null);

                /** StreamAnswer getLock */
                getLock?: (palisade.v1.GetLockResponse.$Properties|null);

                /** StreamAnswer listLocks */
                listLocks?: (palisade.v1.ListLocksResponse.$Properties|null);

                /** StreamAnswer getSession */
                getSession?: (palisade.v1.GetSessionResponse.$Properties|null);

                /** StreamAnswer listSessions */
                listSessions?: (palisade.v1.ListSessionsResponse.$Properties|null);

                /** StreamAnswer getLockHistory */
                getLockHistory?: (palisade.v1.GetLockHistoryResponse.$Properties|null);

                /** StreamAnswer validateToken */
                validateToken?: (palisade.v1.ValidateTokenResponse.$Properties|null);

                /** StreamAnswer campaign */
                campaign?: (palisade.v1.CampaignResponse.$Properties|null);

                /** StreamAnswer proclaim */
                proclaim?: (palisade.v1.ProclaimResponse.$Properties|null);

                /** StreamAnswer resign */
                resign?: (palisade.v1.ResignResponse.$Properties|null);

                /** StreamAnswer leader */
                leader?: (palisade.v1.LeaderResponse.$Properties|null);

                /** StreamAnswer upgrade */
                upgrade?: (palisade.v1.UpgradeResponse.$Properties|null);

                /** StreamAnswer downgrade */
                downgrade?: (palisade.v1.DowngradeResponse.$Properties|null);

                /** StreamAnswer failure */
                failure?: (palisade.v1.StreamFailure.$Properties|null);

                /** StreamAnswer result */
                result?: ("openSession"|"keepAlive"|"closeSession"|"acquire"|"cancelWait"|"release"|"getLock"|"listLocks"|"getSession"|"listSessions"|"getLockHistory"|"validateToken"|"campaign"|"proclaim"|"resign"|"leader"|"upgrade"|"downgrade"|"failure");

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Narrowed shape of a StreamAnswer. */
            type $Shape = {
              id?: Long|null;
              openSession?: palisade.v1.OpenSessionResponse.$Shape|null;
              keepAlive?: palisade.v1.KeepAliveResponse.$Shape|null;
              closeSession?: palisade.v1.CloseSessionResponse.$Shape|null;
              acquire?: palisade.v1.AcquireResponse.$Shape|null;
              cancelWait?: palisade.v1.CancelWaitResponse.$Shape|null;
              release?: palisade.v1.ReleaseResponse.$Shape|null;
              getLock?: palisade.v1.GetLockResponse.$Shape|null;
              listLocks?: palisade.v1.ListLocksResponse.$Shape|null;
              getSession?: palisade.v1.GetSessionResponse.$Shape|null;
              listSessions?: palisade.v1.ListSessionsResponse.$Shape|null;
              getLockHistory?: palisade.v1.GetLockHistoryResponse.$Shape|null;
              validateToken?: palisade.v1.ValidateTokenResponse.$Shape|null;
              campaign?: palisade.v1.CampaignResponse.$Shape|null;
              proclaim?: palisade.v1.ProclaimResponse.$Shape|null;
              resign?: palisade.v1.ResignResponse.$Shape|null;
              leader?: palisade.v1.LeaderResponse.$Shape|null;
              upgrade?: palisade.v1.UpgradeResponse.$Shape|null;
              downgrade?: palisade.v1.DowngradeResponse.$Shape|null;
              failure?: palisade.v1.StreamFailure.$Shape|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ result?: undefined; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "openSession"; openSession: palisade.v1.OpenSessionResponse.$Shape; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "keepAlive"; openSession?: null; keepAlive: palisade.v1.KeepAliveResponse.$Shape; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "closeSession"; openSession?: null; keepAlive?: null; closeSession: palisade.v1.CloseSessionResponse.$Shape; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "acquire"; openSession?: null; keepAlive?: null; closeSession?: null; acquire: palisade.v1.AcquireResponse.$Shape; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "cancelWait"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait: palisade.v1.CancelWaitResponse.$Shape; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "release"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release: palisade.v1.ReleaseResponse.$Shape; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "getLock"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock: palisade.v1.GetLockResponse.$Shape; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "listLocks"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks: palisade.v1.ListLocksResponse.$Shape; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "getSession"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession: palisade.v1.GetSessionResponse.$Shape; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "listSessions"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions: palisade.v1.ListSessionsResponse.$Shape; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "getLockHistory"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory: palisade.v1.GetLockHistoryResponse.$Shape; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "validateToken"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken: palisade.v1.ValidateTokenResponse.$Shape; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "campaign"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign: palisade.v1.CampaignResponse.$Shape; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "proclaim"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim: palisade.v1.ProclaimResponse.$Shape; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "resign"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign: palisade.v1.ResignResponse.$Shape; leader?: null; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "leader"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader: palisade.v1.LeaderResponse.$Shape; upgrade?: null; downgrade?: null; failure?: null }|{ result?: "upgrade"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade: palisade.v1.UpgradeResponse.$Shape; downgrade?: null; failure?: null }|{ result?: "downgrade"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade: palisade.v1.DowngradeResponse.$Shape; failure?: null }|{ result?: "failure"; openSession?: null; keepAlive?: null; closeSession?: null; acquire?: null; cancelWait?: null; release?: null; getLock?: null; listLocks?: null; getSession?: null; listSessions?: null; getLockHistory?: null; validateToken?: null; campaign?: null; proclaim?: null; resign?: null; leader?: null; upgrade?: null; downgrade?: null; failure: palisade.v1.StreamFailure.$Shape })
            );
        }

        /**
         * Properties of a StreamFailure.
         * @deprecated Use palisade.v1.StreamFailure.$Properties instead.
         */
        interface IStreamFailure extends palisade.v1.StreamFailure.$Properties {
        }

        /** Represents a StreamFailure. */
        class StreamFailure {

            /**
             * Constructs a new StreamFailure.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.StreamFailure.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** StreamFailure code. */
            code: number;

            /** StreamFailure reason. */
            reason: palisade.v1.ErrorReason;

            /** StreamFailure message. */
            message: string;

            /** StreamFailure leader. */
            leader: string;

            /**
             * Creates a new StreamFailure instance using the specified properties.
             * @param [properties] Properties to set
             * @returns StreamFailure instance
             */
            static create(properties: palisade.v1.StreamFailure.$Shape): palisade.v1.StreamFailure & palisade.v1.StreamFailure.$Shape;
            static create(properties?: palisade.v1.StreamFailure.$Properties): palisade.v1.StreamFailure;

            /**
             * Encodes the specified StreamFailure message. Does not implicitly {@link palisade.v1.StreamFailure.verify|verify} messages.
             * @param message StreamFailure message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.StreamFailure.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified StreamFailure message, length delimited. Does not implicitly {@link palisade.v1.StreamFailure.verify|verify} messages.
             * @param message StreamFailure message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.StreamFailure.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a StreamFailure message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.StreamFailure & palisade.v1.StreamFailure.$Shape} StreamFailure
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.StreamFailure & palisade.v1.StreamFailure.$Shape;

            /**
             * Decodes a StreamFailure message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.StreamFailure & palisade.v1.StreamFailure.$Shape} StreamFailure
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.StreamFailure & palisade.v1.StreamFailure.$Shape;

            /**
             * Verifies a StreamFailure message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a StreamFailure message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns StreamFailure
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.StreamFailure;

            /**
             * Creates a plain object from a StreamFailure message. Also converts values to other types if specified.
             * @param message StreamFailure
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.StreamFailure, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this StreamFailure to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for StreamFailure
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace StreamFailure {

            /** Properties of a StreamFailure. */
            interface $Properties {

                /** StreamFailure code */
                code?: (number|null);

                /** StreamFailure reason */
                reason?: (palisade.v1.ErrorReason|null);

                /** StreamFailure message */
                message?: (string|null);

                /** StreamFailure leader */
                leader?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a StreamFailure. */
            type $Shape = palisade.v1.StreamFailure.$Properties;
        }

        /** Represents a RaftService */
        class RaftService extends $protobuf.rpc.Service {

            /**
             * Constructs a new RaftService service.
             * @param rpcImpl RPC implementation
             * @param [requestDelimited=false] Whether requests are length-delimited
             * @param [responseDelimited=false] Whether responses are length-delimited
             */
            constructor(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean);

            /**
             * Creates new RaftService service using the specified rpc implementation.
             * @param rpcImpl RPC implementation
             * @param [requestDelimited=false] Whether requests are length-delimited
             * @param [responseDelimited=false] Whether responses are length-delimited
             * @returns RPC service. Useful where requests and/or responses are streamed.
             */
            static create(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean): RaftService;

            /** Calls Stream. */
            stream: palisade.v1.RaftService.Stream;
        }

        namespace RaftService {

            /**
             * Callback as used by {@link palisade.v1.RaftService#stream}.
             * @param error Error, if any
             * @param [response] RaftAck
             */
            type StreamCallback = (error: (Error|null), response?: palisade.v1.RaftAck) => void;

            /** Calls Stream. */
            type Stream = {
              (request: palisade.v1.IRaftBatch, callback: palisade.v1.RaftService.StreamCallback): void;
              (request: palisade.v1.IRaftBatch): Promise<palisade.v1.RaftAck>;
              readonly name: "Stream";
              readonly path: "/palisade.v1.RaftService/Stream";
              readonly requestType: "RaftBatch";
              readonly responseType: "RaftAck";
              readonly requestStream: true;
              readonly responseStream: true;
            };
        }

        /**
         * Properties of a RaftBatch.
         * @deprecated Use palisade.v1.RaftBatch.$Properties instead.
         */
        interface IRaftBatch extends palisade.v1.RaftBatch.$Properties {
        }

        /** Represents a RaftBatch. */
        class RaftBatch {

            /**
             * Constructs a new RaftBatch.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.RaftBatch.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** RaftBatch clusterId. */
            clusterId: string;

            /** RaftBatch from. */
            from: Long;

            /** RaftBatch to. */
            to: Long;

            /** RaftBatch messages. */
            messages: palisade.v1.RaftMessage.$Properties[];

            /**
             * Creates a new RaftBatch instance using the specified properties.
             * @param [properties] Properties to set
             * @returns RaftBatch instance
             */
            static create(properties: palisade.v1.RaftBatch.$Shape): palisade.v1.RaftBatch & palisade.v1.RaftBatch.$Shape;
            static create(properties?: palisade.v1.RaftBatch.$Properties): palisade.v1.RaftBatch;

            /**
             * Encodes the specified RaftBatch message. Does not implicitly {@link palisade.v1.RaftBatch.verify|verify} messages.
             * @param message RaftBatch message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.RaftBatch.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified RaftBatch message, length delimited. Does not implicitly {@link palisade.v1.RaftBatch.verify|verify} messages.
             * @param message RaftBatch message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.RaftBatch.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a RaftBatch message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.RaftBatch & palisade.v1.RaftBatch.$Shape} RaftBatch
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.RaftBatch & palisade.v1.RaftBatch.$Shape;

            /**
             * Decodes a RaftBatch message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.RaftBatch & palisade.v1.RaftBatch.$Shape} RaftBatch
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.RaftBatch & palisade.v1.RaftBatch.$Shape;

            /**
             * Verifies a RaftBatch message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a RaftBatch message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns RaftBatch
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.RaftBatch;

            /**
             * Creates a plain object from a RaftBatch message. Also converts values to other types if specified.
             * @param message RaftBatch
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.RaftBatch, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this RaftBatch to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for RaftBatch
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace RaftBatch {

            /** Properties of a RaftBatch. */
            interface $Properties {

                /** RaftBatch clusterId */
                clusterId?: (string|null);

                /** RaftBatch from */
                from?: (Long|null);

                /** RaftBatch to */
                to?: (Long|null);

                /** RaftBatch messages */
                messages?: (palisade.v1.RaftMessage.$Properties[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a RaftBatch. */
            type $Shape = {
              clusterId?: string|null;
              from?: Long|null;
              to?: Long|null;
              messages?: palisade.v1.RaftMessage.$Shape[]|null;
              $unknowns?: Uint8Array[];
            };
        }

        /**
         * Properties of a RaftAck.
         * @deprecated Use palisade.v1.RaftAck.$Properties instead.
         */
        interface IRaftAck extends palisade.v1.RaftAck.$Properties {
        }

        /** Represents a RaftAck. */
        class RaftAck {

            /**
             * Constructs a new RaftAck.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.RaftAck.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** RaftAck accepted. */
            accepted: number;

            /** RaftAck heldUs. */
            heldUs?: (number|null);

            /**
             * Creates a new RaftAck instance using the specified properties.
             * @param [properties] Properties to set
             * @returns RaftAck instance
             */
            static create(properties: palisade.v1.RaftAck.$Shape): palisade.v1.RaftAck & palisade.v1.RaftAck.$Shape;
            static create(properties?: palisade.v1.RaftAck.$Properties): palisade.v1.RaftAck;

            /**
             * Encodes the specified RaftAck message. Does not implicitly {@link palisade.v1.RaftAck.verify|verify} messages.
             * @param message RaftAck message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.RaftAck.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified RaftAck message, length delimited. Does not implicitly {@link palisade.v1.RaftAck.verify|verify} messages.
             * @param message RaftAck message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.RaftAck.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a RaftAck message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.RaftAck & palisade.v1.RaftAck.$Shape} RaftAck
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.RaftAck & palisade.v1.RaftAck.$Shape;

            /**
             * Decodes a RaftAck message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.RaftAck & palisade.v1.RaftAck.$Shape} RaftAck
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.RaftAck & palisade.v1.RaftAck.$Shape;

            /**
             * Verifies a RaftAck message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a RaftAck message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns RaftAck
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.RaftAck;

            /**
             * Creates a plain object from a RaftAck message. Also converts values to other types if specified.
             * @param message RaftAck
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.RaftAck, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this RaftAck to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for RaftAck
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace RaftAck {

            /** Properties of a RaftAck. */
            interface $Properties {

                /** RaftAck accepted */
                accepted?: (number|null);

                /** RaftAck heldUs */
                heldUs?: (number|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a RaftAck. */
            type $Shape = palisade.v1.RaftAck.$Properties;
        }

        /**
         * Properties of a RaftMessage.
         * @deprecated Use palisade.v1.RaftMessage.$Properties instead.
         */
        interface IRaftMessage extends palisade.v1.RaftMessage.$Properties {
        }

        /** Represents a RaftMessage. */
        class RaftMessage {

            /**
             * Constructs a new RaftMessage.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.RaftMessage.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** RaftMessage term. */
            term: Long;

            /** RaftMessage vote. */
            vote?: (palisade.v1.VoteRequest.$Properties|null);

            /** RaftMessage voteResp. */
            voteResp?: (palisade.v1.VoteResponse.$Properties|null);

            /** RaftMessage append. */
            append?: (palisade.v1.AppendRequest.$Properties|null);

            /** RaftMessage appendResp. */
            appendResp?: (palisade.v1.AppendResponse.$Properties|null);

            /** RaftMessage heartbeat. */
            heartbeat?: (palisade.v1.Heartbeat.$Properties|null);

            /** RaftMessage heartbeatResp. */
            heartbeatResp?: (palisade.v1.HeartbeatResponse.$Properties|null);

            /** RaftMessage timeoutNow. */
            timeoutNow?: (palisade.v1.TimeoutNow.$Properties|null);

            /** RaftMessage readIndex. */
            readIndex?: (palisade.v1.ReadIndexRequest.$Properties|null);

            /** RaftMessage readIndexResp. */
            readIndexResp?: (palisade.v1.ReadIndexResponse.$Properties|null);

            /** RaftMessage snapshot. */
            snapshot?: (palisade.v1.InstallSnapshot.$Properties|null);

            /** RaftMessage body. */
            body?: ("vote"|"voteResp"|"append"|"appendResp"|"heartbeat"|"heartbeatResp"|"timeoutNow"|"readIndex"|"readIndexResp"|"snapshot");

            /**
             * Creates a new RaftMessage instance using the specified properties.
             * @param [properties] Properties to set
             * @returns RaftMessage instance
             */
            static create(properties: palisade.v1.RaftMessage.$Shape): palisade.v1.RaftMessage & palisade.v1.RaftMessage.$Shape;
            static create(properties?: palisade.v1.RaftMessage.$Properties): palisade.v1.RaftMessage;

            /**
             * Encodes the specified RaftMessage message. Does not implicitly {@link palisade.v1.RaftMessage.verify|verify} messages.
             * @param message RaftMessage message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.RaftMessage.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified RaftMessage message, length delimited. Does not implicitly {@link palisade.v1.RaftMessage.verify|verify} messages.
             * @param message RaftMessage message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.RaftMessage.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a RaftMessage message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.RaftMessage & palisade.v1.RaftMessage.$Shape} RaftMessage
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.RaftMessage & palisade.v1.RaftMessage.$Shape;

            /**
             * Decodes a RaftMessage message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.RaftMessage & palisade.v1.RaftMessage.$Shape} RaftMessage
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.RaftMessage & palisade.v1.RaftMessage.$Shape;

            /**
             * Verifies a RaftMessage message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a RaftMessage message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns RaftMessage
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.RaftMessage;

            /**
             * Creates a plain object from a RaftMessage message. Also converts values to other types if specified.
             * @param message RaftMessage
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.RaftMessage, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this RaftMessage to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for RaftMessage
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace RaftMessage {

            /** Properties of a RaftMessage. */
            interface $Properties {

                /** RaftMessage term */
                term?: (Long|null);

                /** RaftMessage vote */
                vote?: (palisade.v1.VoteRequest.$Properties|null);

                /** RaftMessage voteResp */
                voteResp?: (palisade.v1.VoteResponse.$Properties|null);

                /** RaftMessage append */
                append?: (palisade.v1.AppendRequest.$Properties|null);

                /** RaftMessage appendResp */
                appendResp?: (palisade.v1.AppendResponse.$Properties|null);

                /** RaftMessage heartbeat */
                heartbeat?: (palisade.v1.Heartbeat.$Properties|null);

                /** RaftMessage heartbeatResp */
                heartbeatResp?: (palisade.v1.HeartbeatResponse.$Properties|null);

                /** RaftMessage timeoutNow */
                timeoutNow?: (palisade.v1.TimeoutNow.$Properties|null);

                /** RaftMessage readIndex */
                readIndex?: (palisade.v1.ReadIndexRequest.$Properties|null);

                /** RaftMessage readIndexResp */
                readIndexResp?: (palisade.v1.ReadIndexResponse.$Properties|null);

                /** RaftMessage snapshot */
                snapshot?: (palisade.v1.InstallSnapshot.$Properties|null);

                /** RaftMessage body */
                body?: ("vote"|"voteResp"|"append"|"appendResp"|"heartbeat"|"heartbeatResp"|"timeoutNow"|"readIndex"|"readIndexResp"|"snapshot");

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Narrowed shape of a RaftMessage. */
            type $Shape = {
              term?: Long|null;
              vote?: palisade.v1.VoteRequest.$Shape|null;
              voteResp?: palisade.v1.VoteResponse.$Shape|null;
              append?: palisade.v1.AppendRequest.$Shape|null;
              appendResp?: palisade.v1.AppendResponse.$Shape|null;
              heartbeat?: palisade.v1.Heartbeat.$Shape|null;
              heartbeatResp?: palisade.v1.HeartbeatResponse.$Shape|null;
              timeoutNow?: palisade.v1.TimeoutNow.$Shape|null;
              readIndex?: palisade.v1.ReadIndexRequest.$Shape|null;
              readIndexResp?: palisade.v1.ReadIndexResponse.$Shape|null;
              snapshot?: palisade.v1.InstallSnapshot.$Shape|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ body?: undefined; vote?: null; voteResp?: null; append?: null; appendResp?: null; heartbeat?: null; heartbeatResp?: null; timeoutNow?: null; readIndex?: null; readIndexResp?: null; snapshot?: null }|{ body?: "vote"; vote: palisade.v1.VoteRequest.$Shape; voteResp?: null; append?: null; appendResp?: null; heartbeat?: null; heartbeatResp?: null; timeoutNow?: null; readIndex?: null; readIndexResp?: null; snapshot?: null }|{ body?: "voteResp"; vote?: null; voteResp: palisade.v1.VoteResponse.$Shape; append?: null; appendResp?: null; heartbeat?: null; heartbeatResp?: null; timeoutNow?: null; readIndex?: null; readIndexResp?: null; snapshot?: null }|{ body?: "append"; vote?: null; voteResp?: null; append: palisade.v1.AppendRequest.$Shape; appendResp?: null; heartbeat?: null; heartbeatResp?: null; timeoutNow?: null; readIndex?: null; readIndexResp?: null; snapshot?: null }|{ body?: "appendResp"; vote?: null; voteResp?: null; append?: null; appendResp: palisade.v1.AppendResponse.$Shape; heartbeat?: null; heartbeatResp?: null; timeoutNow?: null; readIndex?: null; readIndexResp?: null; snapshot?: null }|{ body?: "heartbeat"; vote?: null; voteResp?: null; append?: null; appendResp?: null; heartbeat: palisade.v1.Heartbeat.$Shape; heartbeatResp?: null; timeoutNow?: null; readIndex?: null; readIndexResp?: null; snapshot?: null }|{ body?: "heartbeatResp"; vote?: null; voteResp?: null; append?: null; appendResp?: null; heartbeat?: null; heartbeatResp: palisade.v1.HeartbeatResponse.$Shape; timeoutNow?: null; readIndex?: null; readIndexResp?: null; snapshot?: null }|{ body?: "timeoutNow"; vote?: null; voteResp?: null; append?: null; appendResp?: null; heartbeat?: null; heartbeatResp?: null; timeoutNow: palisade.v1.TimeoutNow.$Shape; readIndex?: null; readIndexResp?: null; snapshot?: null }|{ body?: "readIndex"; vote?: null; voteResp?: null; append?: null; appendResp?: null; heartbeat?: null; heartbeatResp?: null; timeoutNow?: null; readIndex: palisade.v1.ReadIndexRequest.$Shape; readIndexResp?: null; snapshot?: null }|{ body?: "readIndexResp"; vote?: null; voteResp?: null; append?: null; appendResp?: null; heartbeat?: null; heartbeatResp?: null; timeoutNow?: null; readIndex?: null; readIndexResp: palisade.v1.ReadIndexResponse.$Shape; snapshot?: null }|{ body?: "snapshot"; vote?: null; voteResp?: null; append?: null; appendResp?: null; heartbeat?: null; heartbeatResp?: null; timeoutNow?: null; readIndex?: null; readIndexResp?: null; snapshot: palisade.v1.InstallSnapshot.$Shape })
            );
        }

        /**
         * Properties of a VoteRequest.
         * @deprecated Use palisade.v1.VoteRequest.$Properties instead.
         */
        interface IVoteRequest extends palisade.v1.VoteRequest.$Properties {
        }

        /** Represents a VoteRequest. */
        class VoteRequest {

            /**
             * Constructs a new VoteRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.VoteRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** VoteRequest pre. */
            pre: boolean;

            /** VoteRequest lastIndex. */
            lastIndex: Long;

            /** VoteRequest lastTerm. */
            lastTerm: Long;

            /** VoteRequest transfer. */
            transfer: boolean;

            /**
             * Creates a new VoteRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns VoteRequest instance
             */
            static create(properties: palisade.v1.VoteRequest.$Shape): palisade.v1.VoteRequest & palisade.v1.VoteRequest.$Shape;
            static create(properties?: palisade.v1.VoteRequest.$Properties): palisade.v1.VoteRequest;

            /**
             * Encodes the specified VoteRequest message. Does not implicitly {@link palisade.v1.VoteRequest.verify|verify} messages.
             * @param message VoteRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.VoteRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified VoteRequest message, length delimited. Does not implicitly {@link palisade.v1.VoteRequest.verify|verify} messages.
             * @param message VoteRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.VoteRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a VoteRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.VoteRequest & palisade.v1.VoteRequest.$Shape} VoteRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.VoteRequest & palisade.v1.VoteRequest.$Shape;

            /**
             * Decodes a VoteRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.VoteRequest & palisade.v1.VoteRequest.$Shape} VoteRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.VoteRequest & palisade.v1.VoteRequest.$Shape;

            /**
             * Verifies a VoteRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a VoteRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns VoteRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.VoteRequest;

            /**
             * Creates a plain object from a VoteRequest message. Also converts values to other types if specified.
             * @param message VoteRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.VoteRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this VoteRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for VoteRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace VoteRequest {

            /** Properties of a VoteRequest. */
            interface $Properties {

                /** VoteRequest pre */
                pre?: (boolean|null);

                /** VoteRequest lastIndex */
                lastIndex?: (Long|null);

                /** VoteRequest lastTerm */
                lastTerm?: (Long|null);

                /** VoteRequest transfer */
                transfer?: (boolean|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a VoteRequest. */
            type $Shape = palisade.v1.VoteRequest.$Properties;
        }

        /**
         * Properties of a VoteResponse.
         * @deprecated Use palisade.v1.VoteResponse.$Properties instead.
         */
        interface IVoteResponse extends palisade.v1.VoteResponse.$Properties {
        }

        /** Represents a VoteResponse. */
        class VoteResponse {

            /**
             * Constructs a new VoteResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.VoteResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** VoteResponse pre. */
            pre: boolean;

            /** VoteResponse granted. */
            granted: boolean;

            /**
             * Creates a new VoteResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns VoteResponse instance
             */
            static create(properties: palisade.v1.VoteResponse.$Shape): palisade.v1.VoteResponse & palisade.v1.VoteResponse.$Shape;
            static create(properties?: palisade.v1.VoteResponse.$Properties): palisade.v1.VoteResponse;

            /**
             * Encodes the specified VoteResponse message. Does not implicitly {@link palisade.v1.VoteResponse.verify|verify} messages.
             * @param message VoteResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.VoteResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified VoteResponse message, length delimited. Does not implicitly {@link palisade.v1.VoteResponse.verify|verify} messages.
             * @param message VoteResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.VoteResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a VoteResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.VoteResponse & palisade.v1.VoteResponse.$Shape} VoteResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.VoteResponse & palisade.v1.VoteResponse.$Shape;

            /**
             * Decodes a VoteResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.VoteResponse & palisade.v1.VoteResponse.$Shape} VoteResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.VoteResponse & palisade.v1.VoteResponse.$Shape;

            /**
             * Verifies a VoteResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a VoteResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns VoteResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.VoteResponse;

            /**
             * Creates a plain object from a VoteResponse message. Also converts values to other types if specified.
             * @param message VoteResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.VoteResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this VoteResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for VoteResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace VoteResponse {

            /** Properties of a VoteResponse. */
            interface $Properties {

                /** VoteResponse pre */
                pre?: (boolean|null);

                /** VoteResponse granted */
                granted?: (boolean|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a VoteResponse. */
            type $Shape = palisade.v1.VoteResponse.$Properties;
        }

        /**
         * Properties of an AppendRequest.
         * @deprecated Use palisade.v1.AppendRequest.$Properties instead.
         */
        interface IAppendRequest extends palisade.v1.AppendRequest.$Properties {
        }

        /** Represents an AppendRequest. */
        class AppendRequest {

            /**
             * Constructs a new AppendRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.AppendRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** AppendRequest prevIndex. */
            prevIndex: Long;

            /** AppendRequest prevTerm. */
            prevTerm: Long;

            /** AppendRequest entries. */
            entries: palisade.v1.Entry.$Properties[];

            /** AppendRequest commit. */
            commit: Long;

            /**
             * Creates a new AppendRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns AppendRequest instance
             */
            static create(properties: palisade.v1.AppendRequest.$Shape): palisade.v1.AppendRequest & palisade.v1.AppendRequest.$Shape;
            static create(properties?: palisade.v1.AppendRequest.$Properties): palisade.v1.AppendRequest;

            /**
             * Encodes the specified AppendRequest message. Does not implicitly {@link palisade.v1.AppendRequest.verify|verify} messages.
             * @param message AppendRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.AppendRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified AppendRequest message, length delimited. Does not implicitly {@link palisade.v1.AppendRequest.verify|verify} messages.
             * @param message AppendRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.AppendRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an AppendRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.AppendRequest & palisade.v1.AppendRequest.$Shape} AppendRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.AppendRequest & palisade.v1.AppendRequest.$Shape;

            /**
             * Decodes an AppendRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.AppendRequest & palisade.v1.AppendRequest.$Shape} AppendRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.AppendRequest & palisade.v1.AppendRequest.$Shape;

            /**
             * Verifies an AppendRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an AppendRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns AppendRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.AppendRequest;

            /**
             * Creates a plain object from an AppendRequest message. Also converts values to other types if specified.
             * @param message AppendRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.AppendRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this AppendRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for AppendRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace AppendRequest {

            /** Properties of an AppendRequest. */
            interface $Properties {

                /** AppendRequest prevIndex */
                prevIndex?: (Long|null);

                /** AppendRequest prevTerm */
                prevTerm?: (Long|null);

                /** AppendRequest entries */
                entries?: (palisade.v1.Entry.$Properties[]|null);

                /** AppendRequest commit */
                commit?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an AppendRequest. */
            type $Shape = palisade.v1.AppendRequest.$Properties;
        }

        /**
         * Properties of an AppendResponse.
         * @deprecated Use palisade.v1.AppendResponse.$Properties instead.
         */
        interface IAppendResponse extends palisade.v1.AppendResponse.$Properties {
        }

        /** Represents an AppendResponse. */
        class AppendResponse {

            /**
             * Constructs a new AppendResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.AppendResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** AppendResponse success. */
            success: boolean;

            /** AppendResponse index. */
            index: Long;

            /** AppendResponse hintIndex. */
            hintIndex: Long;

            /** AppendResponse hintTerm. */
            hintTerm: Long;

            /**
             * Creates a new AppendResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns AppendResponse instance
             */
            static create(properties: palisade.v1.AppendResponse.$Shape): palisade.v1.AppendResponse & palisade.v1.AppendResponse.$Shape;
            static create(properties?: palisade.v1.AppendResponse.$Properties): palisade.v1.AppendResponse;

            /**
             * Encodes the specified AppendResponse message. Does not implicitly {@link palisade.v1.AppendResponse.verify|verify} messages.
             * @param message AppendResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.AppendResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified AppendResponse message, length delimited. Does not implicitly {@link palisade.v1.AppendResponse.verify|verify} messages.
             * @param message AppendResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.AppendResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an AppendResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.AppendResponse & palisade.v1.AppendResponse.$Shape} AppendResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.AppendResponse & palisade.v1.AppendResponse.$Shape;

            /**
             * Decodes an AppendResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.AppendResponse & palisade.v1.AppendResponse.$Shape} AppendResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.AppendResponse & palisade.v1.AppendResponse.$Shape;

            /**
             * Verifies an AppendResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an AppendResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns AppendResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.AppendResponse;

            /**
             * Creates a plain object from an AppendResponse message. Also converts values to other types if specified.
             * @param message AppendResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.AppendResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this AppendResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for AppendResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace AppendResponse {

            /** Properties of an AppendResponse. */
            interface $Properties {

                /** AppendResponse success */
                success?: (boolean|null);

                /** AppendResponse index */
                index?: (Long|null);

                /** AppendResponse hintIndex */
                hintIndex?: (Long|null);

                /** AppendResponse hintTerm */
                hintTerm?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an AppendResponse. */
            type $Shape = palisade.v1.AppendResponse.$Properties;
        }

        /**
         * Properties of a Heartbeat.
         * @deprecated Use palisade.v1.Heartbeat.$Properties instead.
         */
        interface IHeartbeat extends palisade.v1.Heartbeat.$Properties {
        }

        /** Represents a Heartbeat. */
        class Heartbeat {

            /**
             * Constructs a new Heartbeat.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.Heartbeat.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Heartbeat commit. */
            commit: Long;

            /** Heartbeat round. */
            round: Long;

            /**
             * Creates a new Heartbeat instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Heartbeat instance
             */
            static create(properties: palisade.v1.Heartbeat.$Shape): palisade.v1.Heartbeat & palisade.v1.Heartbeat.$Shape;
            static create(properties?: palisade.v1.Heartbeat.$Properties): palisade.v1.Heartbeat;

            /**
             * Encodes the specified Heartbeat message. Does not implicitly {@link palisade.v1.Heartbeat.verify|verify} messages.
             * @param message Heartbeat message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.Heartbeat.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Heartbeat message, length delimited. Does not implicitly {@link palisade.v1.Heartbeat.verify|verify} messages.
             * @param message Heartbeat message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.Heartbeat.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Heartbeat message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.Heartbeat & palisade.v1.Heartbeat.$Shape} Heartbeat
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.Heartbeat & palisade.v1.Heartbeat.$Shape;

            /**
             * Decodes a Heartbeat message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.Heartbeat & palisade.v1.Heartbeat.$Shape} Heartbeat
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.Heartbeat & palisade.v1.Heartbeat.$Shape;

            /**
             * Verifies a Heartbeat message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Heartbeat message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Heartbeat
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.Heartbeat;

            /**
             * Creates a plain object from a Heartbeat message. Also converts values to other types if specified.
             * @param message Heartbeat
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.Heartbeat, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Heartbeat to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Heartbeat
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Heartbeat {

            /** Properties of a Heartbeat. */
            interface $Properties {

                /** Heartbeat commit */
                commit?: (Long|null);

                /** Heartbeat round */
                round?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Heartbeat. */
            type $Shape = palisade.v1.Heartbeat.$Properties;
        }

        /**
         * Properties of a HeartbeatResponse.
         * @deprecated Use palisade.v1.HeartbeatResponse.$Properties instead.
         */
        interface IHeartbeatResponse extends palisade.v1.HeartbeatResponse.$Properties {
        }

        /** Represents a HeartbeatResponse. */
        class HeartbeatResponse {

            /**
             * Constructs a new HeartbeatResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.HeartbeatResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** HeartbeatResponse round. */
            round: Long;

            /**
             * Creates a new HeartbeatResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns HeartbeatResponse instance
             */
            static create(properties: palisade.v1.HeartbeatResponse.$Shape): palisade.v1.HeartbeatResponse & palisade.v1.HeartbeatResponse.$Shape;
            static create(properties?: palisade.v1.HeartbeatResponse.$Properties): palisade.v1.HeartbeatResponse;

            /**
             * Encodes the specified HeartbeatResponse message. Does not implicitly {@link palisade.v1.HeartbeatResponse.verify|verify} messages.
             * @param message HeartbeatResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.HeartbeatResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified HeartbeatResponse message, length delimited. Does not implicitly {@link palisade.v1.HeartbeatResponse.verify|verify} messages.
             * @param message HeartbeatResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.HeartbeatResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a HeartbeatResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.HeartbeatResponse & palisade.v1.HeartbeatResponse.$Shape} HeartbeatResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.HeartbeatResponse & palisade.v1.HeartbeatResponse.$Shape;

            /**
             * Decodes a HeartbeatResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.HeartbeatResponse & palisade.v1.HeartbeatResponse.$Shape} HeartbeatResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.HeartbeatResponse & palisade.v1.HeartbeatResponse.$Shape;

            /**
             * Verifies a HeartbeatResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a HeartbeatResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns HeartbeatResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.HeartbeatResponse;

            /**
             * Creates a plain object from a HeartbeatResponse message. Also converts values to other types if specified.
             * @param message HeartbeatResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.HeartbeatResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this HeartbeatResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for HeartbeatResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace HeartbeatResponse {

            /** Properties of a HeartbeatResponse. */
            interface $Properties {

                /** HeartbeatResponse round */
                round?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a HeartbeatResponse. */
            type $Shape = palisade.v1.HeartbeatResponse.$Properties;
        }

        /**
         * Properties of a TimeoutNow.
         * @deprecated Use palisade.v1.TimeoutNow.$Properties instead.
         */
        interface ITimeoutNow extends palisade.v1.TimeoutNow.$Properties {
        }

        /** Represents a TimeoutNow. */
        class TimeoutNow {

            /**
             * Constructs a new TimeoutNow.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.TimeoutNow.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new TimeoutNow instance using the specified properties.
             * @param [properties] Properties to set
             * @returns TimeoutNow instance
             */
            static create(properties: palisade.v1.TimeoutNow.$Shape): palisade.v1.TimeoutNow & palisade.v1.TimeoutNow.$Shape;
            static create(properties?: palisade.v1.TimeoutNow.$Properties): palisade.v1.TimeoutNow;

            /**
             * Encodes the specified TimeoutNow message. Does not implicitly {@link palisade.v1.TimeoutNow.verify|verify} messages.
             * @param message TimeoutNow message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.TimeoutNow.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified TimeoutNow message, length delimited. Does not implicitly {@link palisade.v1.TimeoutNow.verify|verify} messages.
             * @param message TimeoutNow message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.TimeoutNow.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a TimeoutNow message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.TimeoutNow & palisade.v1.TimeoutNow.$Shape} TimeoutNow
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.TimeoutNow & palisade.v1.TimeoutNow.$Shape;

            /**
             * Decodes a TimeoutNow message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.TimeoutNow & palisade.v1.TimeoutNow.$Shape} TimeoutNow
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.TimeoutNow & palisade.v1.TimeoutNow.$Shape;

            /**
             * Verifies a TimeoutNow message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a TimeoutNow message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns TimeoutNow
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.TimeoutNow;

            /**
             * Creates a plain object from a TimeoutNow message. Also converts values to other types if specified.
             * @param message TimeoutNow
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.TimeoutNow, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this TimeoutNow to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for TimeoutNow
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace TimeoutNow {

            /** Properties of a TimeoutNow. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a TimeoutNow. */
            type $Shape = palisade.v1.TimeoutNow.$Properties;
        }

        /**
         * Properties of a ReadIndexRequest.
         * @deprecated Use palisade.v1.ReadIndexRequest.$Properties instead.
         */
        interface IReadIndexRequest extends palisade.v1.ReadIndexRequest.$Properties {
        }

        /** Represents a ReadIndexRequest. */
        class ReadIndexRequest {

            /**
             * Constructs a new ReadIndexRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ReadIndexRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ReadIndexRequest requestId. */
            requestId: Long;

            /**
             * Creates a new ReadIndexRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ReadIndexRequest instance
             */
            static create(properties: palisade.v1.ReadIndexRequest.$Shape): palisade.v1.ReadIndexRequest & palisade.v1.ReadIndexRequest.$Shape;
            static create(properties?: palisade.v1.ReadIndexRequest.$Properties): palisade.v1.ReadIndexRequest;

            /**
             * Encodes the specified ReadIndexRequest message. Does not implicitly {@link palisade.v1.ReadIndexRequest.verify|verify} messages.
             * @param message ReadIndexRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ReadIndexRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ReadIndexRequest message, length delimited. Does not implicitly {@link palisade.v1.ReadIndexRequest.verify|verify} messages.
             * @param message ReadIndexRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ReadIndexRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ReadIndexRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ReadIndexRequest & palisade.v1.ReadIndexRequest.$Shape} ReadIndexRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ReadIndexRequest & palisade.v1.ReadIndexRequest.$Shape;

            /**
             * Decodes a ReadIndexRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ReadIndexRequest & palisade.v1.ReadIndexRequest.$Shape} ReadIndexRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ReadIndexRequest & palisade.v1.ReadIndexRequest.$Shape;

            /**
             * Verifies a ReadIndexRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ReadIndexRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ReadIndexRequest
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ReadIndexRequest;

            /**
             * Creates a plain object from a ReadIndexRequest message. Also converts values to other types if specified.
             * @param message ReadIndexRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ReadIndexRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ReadIndexRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ReadIndexRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ReadIndexRequest {

            /** Properties of a ReadIndexRequest. */
            interface $Properties {

                /** ReadIndexRequest requestId */
                requestId?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ReadIndexRequest. */
            type $Shape = palisade.v1.ReadIndexRequest.$Properties;
        }

        /**
         * Properties of a ReadIndexResponse.
         * @deprecated Use palisade.v1.ReadIndexResponse.$Properties instead.
         */
        interface IReadIndexResponse extends palisade.v1.ReadIndexResponse.$Properties {
        }

        /** Represents a ReadIndexResponse. */
        class ReadIndexResponse {

            /**
             * Constructs a new ReadIndexResponse.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.ReadIndexResponse.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** ReadIndexResponse requestId. */
            requestId: Long;

            /** ReadIndexResponse index. */
            index: Long;

            /**
             * Creates a new ReadIndexResponse instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ReadIndexResponse instance
             */
            static create(properties: palisade.v1.ReadIndexResponse.$Shape): palisade.v1.ReadIndexResponse & palisade.v1.ReadIndexResponse.$Shape;
            static create(properties?: palisade.v1.ReadIndexResponse.$Properties): palisade.v1.ReadIndexResponse;

            /**
             * Encodes the specified ReadIndexResponse message. Does not implicitly {@link palisade.v1.ReadIndexResponse.verify|verify} messages.
             * @param message ReadIndexResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.ReadIndexResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ReadIndexResponse message, length delimited. Does not implicitly {@link palisade.v1.ReadIndexResponse.verify|verify} messages.
             * @param message ReadIndexResponse message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.ReadIndexResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ReadIndexResponse message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.ReadIndexResponse & palisade.v1.ReadIndexResponse.$Shape} ReadIndexResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.ReadIndexResponse & palisade.v1.ReadIndexResponse.$Shape;

            /**
             * Decodes a ReadIndexResponse message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.ReadIndexResponse & palisade.v1.ReadIndexResponse.$Shape} ReadIndexResponse
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.ReadIndexResponse & palisade.v1.ReadIndexResponse.$Shape;

            /**
             * Verifies a ReadIndexResponse message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ReadIndexResponse message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ReadIndexResponse
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.ReadIndexResponse;

            /**
             * Creates a plain object from a ReadIndexResponse message. Also converts values to other types if specified.
             * @param message ReadIndexResponse
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.ReadIndexResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ReadIndexResponse to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ReadIndexResponse
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ReadIndexResponse {

            /** Properties of a ReadIndexResponse. */
            interface $Properties {

                /** ReadIndexResponse requestId */
                requestId?: (Long|null);

                /** ReadIndexResponse index */
                index?: (Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ReadIndexResponse. */
            type $Shape = palisade.v1.ReadIndexResponse.$Properties;
        }

        /**
         * Properties of an InstallSnapshot.
         * @deprecated Use palisade.v1.InstallSnapshot.$Properties instead.
         */
        interface IInstallSnapshot extends palisade.v1.InstallSnapshot.$Properties {
        }

        /** Represents an InstallSnapshot. */
        class InstallSnapshot {

            /**
             * Constructs a new InstallSnapshot.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.InstallSnapshot.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** InstallSnapshot meta. */
            meta?: (palisade.v1.SnapshotMeta.$Properties|null);

            /** InstallSnapshot data. */
            data: Uint8Array;

            /** InstallSnapshot offset. */
            offset: Long;

            /** InstallSnapshot total. */
            total: Long;

            /** InstallSnapshot crc. */
            crc: number;

            /**
             * Creates a new InstallSnapshot instance using the specified properties.
             * @param [properties] Properties to set
             * @returns InstallSnapshot instance
             */
            static create(properties: palisade.v1.InstallSnapshot.$Shape): palisade.v1.InstallSnapshot & palisade.v1.InstallSnapshot.$Shape;
            static create(properties?: palisade.v1.InstallSnapshot.$Properties): palisade.v1.InstallSnapshot;

            /**
             * Encodes the specified InstallSnapshot message. Does not implicitly {@link palisade.v1.InstallSnapshot.verify|verify} messages.
             * @param message InstallSnapshot message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.InstallSnapshot.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified InstallSnapshot message, length delimited. Does not implicitly {@link palisade.v1.InstallSnapshot.verify|verify} messages.
             * @param message InstallSnapshot message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.InstallSnapshot.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an InstallSnapshot message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.InstallSnapshot & palisade.v1.InstallSnapshot.$Shape} InstallSnapshot
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.InstallSnapshot & palisade.v1.InstallSnapshot.$Shape;

            /**
             * Decodes an InstallSnapshot message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.InstallSnapshot & palisade.v1.InstallSnapshot.$Shape} InstallSnapshot
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.InstallSnapshot & palisade.v1.InstallSnapshot.$Shape;

            /**
             * Verifies an InstallSnapshot message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an InstallSnapshot message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns InstallSnapshot
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.InstallSnapshot;

            /**
             * Creates a plain object from an InstallSnapshot message. Also converts values to other types if specified.
             * @param message InstallSnapshot
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.InstallSnapshot, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this InstallSnapshot to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for InstallSnapshot
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace InstallSnapshot {

            /** Properties of an InstallSnapshot. */
            interface $Properties {

                /** InstallSnapshot meta */
                meta?: (palisade.v1.SnapshotMeta.$Properties|null);

                /** InstallSnapshot data */
                data?: (Uint8Array|null);

                /** InstallSnapshot offset */
                offset?: (Long|null);

                /** InstallSnapshot total */
                total?: (Long|null);

                /** InstallSnapshot crc */
                crc?: (number|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an InstallSnapshot. */
            type $Shape = palisade.v1.InstallSnapshot.$Properties;
        }

        /** EntryKind enum. */
        enum EntryKind {

            /** ENTRY_KIND_UNSPECIFIED value */
            ENTRY_KIND_UNSPECIFIED = 0,

            /** ENTRY_KIND_NORMAL value */
            ENTRY_KIND_NORMAL = 1,

            /** ENTRY_KIND_NOOP value */
            ENTRY_KIND_NOOP = 2,

            /** ENTRY_KIND_CONFIG value */
            ENTRY_KIND_CONFIG = 3
        }

        /**
         * Properties of an Entry.
         * @deprecated Use palisade.v1.Entry.$Properties instead.
         */
        interface IEntry extends palisade.v1.Entry.$Properties {
        }

        /** Represents an Entry. */
        class Entry {

            /**
             * Constructs a new Entry.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.Entry.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Entry term. */
            term: Long;

            /** Entry index. */
            index: Long;

            /** Entry kind. */
            kind: palisade.v1.EntryKind;

            /** Entry data. */
            data: Uint8Array;

            /**
             * Creates a new Entry instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Entry instance
             */
            static create(properties: palisade.v1.Entry.$Shape): palisade.v1.Entry & palisade.v1.Entry.$Shape;
            static create(properties?: palisade.v1.Entry.$Properties): palisade.v1.Entry;

            /**
             * Encodes the specified Entry message. Does not implicitly {@link palisade.v1.Entry.verify|verify} messages.
             * @param message Entry message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.Entry.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Entry message, length delimited. Does not implicitly {@link palisade.v1.Entry.verify|verify} messages.
             * @param message Entry message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.Entry.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an Entry message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.Entry & palisade.v1.Entry.$Shape} Entry
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.Entry & palisade.v1.Entry.$Shape;

            /**
             * Decodes an Entry message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.Entry & palisade.v1.Entry.$Shape} Entry
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.Entry & palisade.v1.Entry.$Shape;

            /**
             * Verifies an Entry message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an Entry message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Entry
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.Entry;

            /**
             * Creates a plain object from an Entry message. Also converts values to other types if specified.
             * @param message Entry
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.Entry, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Entry to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Entry
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Entry {

            /** Properties of an Entry. */
            interface $Properties {

                /** Entry term */
                term?: (Long|null);

                /** Entry index */
                index?: (Long|null);

                /** Entry kind */
                kind?: (palisade.v1.EntryKind|null);

                /** Entry data */
                data?: (Uint8Array|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an Entry. */
            type $Shape = palisade.v1.Entry.$Properties;
        }

        /**
         * Properties of a Membership.
         * @deprecated Use palisade.v1.Membership.$Properties instead.
         */
        interface IMembership extends palisade.v1.Membership.$Properties {
        }

        /** Represents a Membership. */
        class Membership {

            /**
             * Constructs a new Membership.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.Membership.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Membership voters. */
            voters: Long[];

            /** Membership learners. */
            learners: Long[];

            /** Membership addresses. */
            addresses: palisade.v1.MemberAddress.$Properties[];

            /** Membership retired. */
            retired: Long[];

            /**
             * Creates a new Membership instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Membership instance
             */
            static create(properties: palisade.v1.Membership.$Shape): palisade.v1.Membership & palisade.v1.Membership.$Shape;
            static create(properties?: palisade.v1.Membership.$Properties): palisade.v1.Membership;

            /**
             * Encodes the specified Membership message. Does not implicitly {@link palisade.v1.Membership.verify|verify} messages.
             * @param message Membership message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.Membership.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Membership message, length delimited. Does not implicitly {@link palisade.v1.Membership.verify|verify} messages.
             * @param message Membership message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.Membership.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Membership message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.Membership & palisade.v1.Membership.$Shape} Membership
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.Membership & palisade.v1.Membership.$Shape;

            /**
             * Decodes a Membership message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.Membership & palisade.v1.Membership.$Shape} Membership
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.Membership & palisade.v1.Membership.$Shape;

            /**
             * Verifies a Membership message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Membership message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Membership
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.Membership;

            /**
             * Creates a plain object from a Membership message. Also converts values to other types if specified.
             * @param message Membership
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.Membership, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Membership to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Membership
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Membership {

            /** Properties of a Membership. */
            interface $Properties {

                /** Membership voters */
                voters?: (Long[]|null);

                /** Membership learners */
                learners?: (Long[]|null);

                /** Membership addresses */
                addresses?: (palisade.v1.MemberAddress.$Properties[]|null);

                /** Membership retired */
                retired?: (Long[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Membership. */
            type $Shape = palisade.v1.Membership.$Properties;
        }

        /**
         * Properties of a MemberAddress.
         * @deprecated Use palisade.v1.MemberAddress.$Properties instead.
         */
        interface IMemberAddress extends palisade.v1.MemberAddress.$Properties {
        }

        /** Represents a MemberAddress. */
        class MemberAddress {

            /**
             * Constructs a new MemberAddress.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.MemberAddress.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** MemberAddress id. */
            id: Long;

            /** MemberAddress peer. */
            peer: string;

            /** MemberAddress client. */
            client: string;

            /**
             * Creates a new MemberAddress instance using the specified properties.
             * @param [properties] Properties to set
             * @returns MemberAddress instance
             */
            static create(properties: palisade.v1.MemberAddress.$Shape): palisade.v1.MemberAddress & palisade.v1.MemberAddress.$Shape;
            static create(properties?: palisade.v1.MemberAddress.$Properties): palisade.v1.MemberAddress;

            /**
             * Encodes the specified MemberAddress message. Does not implicitly {@link palisade.v1.MemberAddress.verify|verify} messages.
             * @param message MemberAddress message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.MemberAddress.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified MemberAddress message, length delimited. Does not implicitly {@link palisade.v1.MemberAddress.verify|verify} messages.
             * @param message MemberAddress message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.MemberAddress.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a MemberAddress message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.MemberAddress & palisade.v1.MemberAddress.$Shape} MemberAddress
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.MemberAddress & palisade.v1.MemberAddress.$Shape;

            /**
             * Decodes a MemberAddress message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.MemberAddress & palisade.v1.MemberAddress.$Shape} MemberAddress
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.MemberAddress & palisade.v1.MemberAddress.$Shape;

            /**
             * Verifies a MemberAddress message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a MemberAddress message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns MemberAddress
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.MemberAddress;

            /**
             * Creates a plain object from a MemberAddress message. Also converts values to other types if specified.
             * @param message MemberAddress
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.MemberAddress, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this MemberAddress to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for MemberAddress
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace MemberAddress {

            /** Properties of a MemberAddress. */
            interface $Properties {

                /** MemberAddress id */
                id?: (Long|null);

                /** MemberAddress peer */
                peer?: (string|null);

                /** MemberAddress client */
                client?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a MemberAddress. */
            type $Shape = palisade.v1.MemberAddress.$Properties;
        }

        /**
         * Properties of a SnapshotMeta.
         * @deprecated Use palisade.v1.SnapshotMeta.$Properties instead.
         */
        interface ISnapshotMeta extends palisade.v1.SnapshotMeta.$Properties {
        }

        /** Represents a SnapshotMeta. */
        class SnapshotMeta {

            /**
             * Constructs a new SnapshotMeta.
             * @param [properties] Properties to set
             */
            constructor(properties?: palisade.v1.SnapshotMeta.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** SnapshotMeta index. */
            index: Long;

            /** SnapshotMeta term. */
            term: Long;

            /** SnapshotMeta membership. */
            membership?: (palisade.v1.Membership.$Properties|null);

            /**
             * Creates a new SnapshotMeta instance using the specified properties.
             * @param [properties] Properties to set
             * @returns SnapshotMeta instance
             */
            static create(properties: palisade.v1.SnapshotMeta.$Shape): palisade.v1.SnapshotMeta & palisade.v1.SnapshotMeta.$Shape;
            static create(properties?: palisade.v1.SnapshotMeta.$Properties): palisade.v1.SnapshotMeta;

            /**
             * Encodes the specified SnapshotMeta message. Does not implicitly {@link palisade.v1.SnapshotMeta.verify|verify} messages.
             * @param message SnapshotMeta message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: palisade.v1.SnapshotMeta.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified SnapshotMeta message, length delimited. Does not implicitly {@link palisade.v1.SnapshotMeta.verify|verify} messages.
             * @param message SnapshotMeta message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: palisade.v1.SnapshotMeta.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a SnapshotMeta message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {palisade.v1.SnapshotMeta & palisade.v1.SnapshotMeta.$Shape} SnapshotMeta
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): palisade.v1.SnapshotMeta & palisade.v1.SnapshotMeta.$Shape;

            /**
             * Decodes a SnapshotMeta message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {palisade.v1.SnapshotMeta & palisade.v1.SnapshotMeta.$Shape} SnapshotMeta
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): palisade.v1.SnapshotMeta & palisade.v1.SnapshotMeta.$Shape;

            /**
             * Verifies a SnapshotMeta message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a SnapshotMeta message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns SnapshotMeta
             */
            static fromObject(object: { [k: string]: any }): palisade.v1.SnapshotMeta;

            /**
             * Creates a plain object from a SnapshotMeta message. Also converts values to other types if specified.
             * @param message SnapshotMeta
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: palisade.v1.SnapshotMeta, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this SnapshotMeta to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for SnapshotMeta
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace SnapshotMeta {

            /** Properties of a SnapshotMeta. */
            interface $Properties {

                /** SnapshotMeta index */
                index?: (Long|null);

                /** SnapshotMeta term */
                term?: (Long|null);

                /** SnapshotMeta membership */
                membership?: (palisade.v1.Membership.$Properties|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a SnapshotMeta. */
            type $Shape = palisade.v1.SnapshotMeta.$Properties;
        }
    }
}
