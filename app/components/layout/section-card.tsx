import type * as React from "react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

/** A card with an h2 title (and an optional line under it) above its content. */
export function SectionCard({
  title,
  subtitle,
  className,
  contentClassName,
  children,
}: {
  title: string;
  subtitle?: React.ReactNode;
  className?: string;
  contentClassName?: string;
  children: React.ReactNode;
}) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{title}</h2>
        </CardTitle>
        {subtitle ? <p className="text-sm text-muted-foreground">{subtitle}</p> : null}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
