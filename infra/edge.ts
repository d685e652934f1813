import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as targets from 'aws-cdk-lib/aws-route53-targets';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { HOST_PATHS } from '#shared/host/paths';
import { EDGE_ORIGIN_HEADER, VIEWER_ADDRESS_HEADER } from '#shared/http/edge-origin';
import { ALB_IDLE_TIMEOUT_SECONDS } from './host.ts';

/**
 * How long CloudFront waits for the next bytes of a stream from the load balancer before it cuts
 * the stream: four of the streams' 15 s heartbeats (shared/stream/routes.ts HEARTBEAT_MS), within
 * the 120 s CloudFront allows a VPC origin without a quota increase.
 */
export const STREAM_READ_TIMEOUT_SECONDS = 60;
/** An idle connection to the load balancer is reused this long: under its idle timeout, so never one it closed. */
export const STREAM_KEEPALIVE_SECONDS = 60;
/** API Gateway ends an integration at 30 s; CloudFront waits as long, no longer. */
export const API_READ_TIMEOUT_SECONDS = 30;

if (STREAM_KEEPALIVE_SECONDS >= ALB_IDLE_TIMEOUT_SECONDS) {
  throw new Error('CloudFront must let go of an idle connection before the load balancer does');
}

export interface EdgeProps {
  httpApi: HttpApi;
  /** Internal: reached through CloudFront's VPC origin only. */
  loadBalancer: elbv2.IApplicationLoadBalancer;
  domainName?: string;
  certificateArn?: string;
  hostedZone?: { id: string; name: string };
  /** Sent to API Gateway with every request; the API refuses a request without it (shared/http/edge-origin.ts). */
  originKey: secretsmanager.ISecret;
}

/**
 * The service's one public address: a CloudFront distribution in front of the HTTP API and the
 * connection hosts' load balancer (docs/deploy.md, "Public address and routing"). The stream and
 * speech paths go to the load balancer, every other path to API Gateway, so a client calls one host
 * name over HTTPS and is never redirected. Nothing is cached: every header (Authorization included),
 * cookie and query string reaches the origin, and every answer is the origin's own.
 */
export class Edge extends Construct {
  readonly distribution: cloudfront.Distribution;
  /** `https://<domainName>`, or `https://<id>.cloudfront.net` without one: the base of every URL the service hands out. */
  readonly publicBaseUrl: string;

  constructor(scope: Construct, id: string, props: EdgeProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const api = new origins.HttpOrigin(
      `${props.httpApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`,
      {
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
        readTimeout: Duration.seconds(API_READ_TIMEOUT_SECONDS),
        // Resolved by CloudFormation at deploy time (a dynamic reference): the value is in no template.
        customHeaders: { [EDGE_ORIGIN_HEADER]: props.originKey.secretValue.unsafeUnwrap() },
      },
    );
    // API Gateway sees CloudFront's edge as the caller: the viewer's address goes along, written over
    // whatever header of that name the client sent (the API-key guessing limits count per address).
    const viewerAddress = new cloudfront.Function(this, 'ViewerAddress', {
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'The viewer address for the API (shared/http/client-address.ts)',
      code: cloudfront.FunctionCode.fromInline(
        `function handler(event) { event.request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip }; return event.request; }`,
      ),
    });
    // A VPC origin reaches the internal load balancer over AWS's network: the load balancer has no
    // public address at all, so nothing but this distribution (and the VPC itself) can reach it.
    const hosts = origins.VpcOrigin.withApplicationLoadBalancer(props.loadBalancer, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTP_ONLY,
      httpPort: 80,
      readTimeout: Duration.seconds(STREAM_READ_TIMEOUT_SECONDS),
      keepaliveTimeout: Duration.seconds(STREAM_KEEPALIVE_SECONDS),
    });
    const passThrough = {
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      // With caching disabled this managed policy forwards Authorization too; API Gateway needs its
      // own Host header, so the viewer's is the one header left out.
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      // Plain HTTP is refused (403), not redirected: a credential sent in clear is not carried on.
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      compress: false,
    } satisfies Omit<cloudfront.BehaviorOptions, 'origin'>;

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `${stack.stackName}: API and streams on one name`,
      defaultBehavior: {
        origin: api,
        ...passThrough,
        functionAssociations: [
          { function: viewerAddress, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
        ],
      },
      additionalBehaviors: Object.fromEntries(
        HOST_PATHS.map((path) => [path, { origin: hosts, ...passThrough }]),
      ),
      // HTTP/2: a browser's streams share one connection instead of six per host under HTTP/1.1.
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // North America, Europe, Asia including India (the payment and language features' users), Middle East, Africa.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_200,
      ...(props.domainName && props.certificateArn
        ? {
            domainNames: [props.domainName],
            certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
    });
    this.publicBaseUrl = `https://${props.domainName ?? this.distribution.distributionDomainName}`;

    if (props.domainName && props.hostedZone) {
      const zone = route53.HostedZone.fromHostedZoneAttributes(this, 'Zone', {
        hostedZoneId: props.hostedZone.id,
        zoneName: props.hostedZone.name,
      });
      const target = route53.RecordTarget.fromAlias(new targets.CloudFrontTarget(this.distribution));
      new route53.ARecord(this, 'Alias', { zone, recordName: props.domainName, target });
      new route53.AaaaRecord(this, 'AliasV6', { zone, recordName: props.domainName, target });
    }
  }
}
